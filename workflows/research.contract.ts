import { defineWorkflow } from './defineWorkflow';

// The `research` workflow's contract and shapes, shared by the workflow, its activities and the routes. No I/O here.

export const MAX_SOURCES = 10;
export const DEFAULT_MAX_SOURCES = 5;
/** The spec's page limit: a page over this many characters of readable text is skipped and reported as a gap. */
export const MAX_PAGE_CHARACTERS = 60_000;
/** The spec's runtime bound of a research run. */
export const RESEARCH_BUDGET_MS = 300_000;

export type Extraction = 'model' | 'fallback';

export interface ResearchInput {
  accountId: string;
  /** The item researched; null for topic research (nothing is stamped then). */
  contentId: string | null;
  /** For item research the activity reads the item's title again at the start; this is what the route saw. */
  topic: string;
  keyword: string | null;
  /** 1..10, default 5. */
  maxSources: number;
  avatarId?: string | null;
  projectId?: string | null;
  requestId: string;
}

export interface ResearchClaim {
  claim: string;
  quote: string;
  kind: 'web' | 'kb';
  source_url: string | null;
  extraction: Extraction;
  confidence_score: number;
}

export interface ResearchSource {
  url: string;
  title: string | null;
  indexed: boolean;
  already_indexed: boolean;
  claims: number;
}

export interface SerpEntry {
  position: number;
  title: string;
  url: string;
  description: string;
}

export interface ResearchSerp {
  query: string;
  results: SerpEntry[];
}

/** One research run: `research:<account>:<content or topic>:<Idempotency-Key>`. */
export const researchContract = defineWorkflow<[ResearchInput], ResearchResult>('research', 'research');

export interface ResearchResult {
  run_id: string;
  content_id: string | null;
  topic: string;
  keyword: string | null;
  knowledge_base_id: string;
  artifact_id: string;
  artifact_created: boolean;
  extraction: Extraction;
  claims: ResearchClaim[];
  sources: ResearchSource[];
  serp: ResearchSerp | null;
  warnings: string[];
  gaps: string[];
}

// Activity inputs and outputs (small: page text never travels through workflow history).

export interface ResearchSubject {
  topic: string;
  keyword: string | null;
  /** Whether the worker has a model key (claims by the model) or uses the fallback extractor. */
  extraction: Extraction;
  /** RESEARCH_FETCH_CONCURRENCY of the worker that answered (recorded in history, so replay is deterministic). */
  fetchConcurrency: number;
}

export interface KnowledgeStep {
  claims: ResearchClaim[];
  warnings: string[];
  knowledgeBases: number;
  passages: number;
}

export interface SearchStep {
  serp: ResearchSerp | null;
  warnings: string[];
}

export interface PageInput {
  accountId: string;
  url: string;
  /** The search result's title, used when the page has none. */
  serpTitle: string | null;
  topic: string;
  keyword: string | null;
}

export type PageOutcome =
  | { status: 'read'; url: string; title: string | null; claims: ResearchClaim[]; warnings: string[]; textHash: string; characters: number }
  | { status: 'gap'; url: string; gap: string };

export interface IndexPageInput {
  accountId: string;
  url: string;
  title: string | null;
  textHash: string;
  /** The quotes taken from the page: text read again for indexing must still hold them. */
  quotes: string[];
}

export interface IndexPageOutcome {
  indexed: boolean;
  already_indexed: boolean;
  warning: string | null;
}

/** Which parts of the stored research a re-run could not retrieve again (see src/research/kept.ts). */
export interface KeptInput {
  accountId: string;
  contentId: string | null;
  topic: string;
  keyword: string | null;
  /** The web search did not run (serp null): keep the stored web claims and sources. */
  web: boolean;
  /** The knowledge bases could not be searched: keep the stored kb claims. */
  knowledge: boolean;
}

export interface KeptResearch {
  /** When the stored research was written. */
  researchedAt: string;
  webClaims: ResearchClaim[];
  sources: ResearchSource[];
  kbClaims: ResearchClaim[];
}

export interface ArtifactInput {
  accountId: string;
  contentId: string | null;
  topic: string;
  keyword: string | null;
  claims: ResearchClaim[];
  sources: ResearchSource[];
  serp: ResearchSerp | null;
  gaps: string[];
  warnings: string[];
  researchedAt: string;
}

export interface ArtifactOutcome {
  knowledgeBaseId: string;
  artifactId: string;
  created: boolean;
}

export interface StampInput {
  accountId: string;
  contentId: string;
  result: ResearchResult;
  researchedAt: string;
}
