/** Entry kinds a writer can ask for, in the order a pack lists them. */
export const PROOF_KINDS = ['testimonial', 'result', 'review', 'ticket', 'call', 'survey', 'objection', 'knowledge'] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];

/** Kinds that are internal voice of customer: never quoted, paraphrased without a name. */
export const PARAPHRASED_KINDS: ReadonlySet<ProofKind> = new Set(['ticket', 'call', 'survey', 'objection', 'knowledge']);

/** The CRM activity kinds the pack reads (crm_contact_activities.kind, compared case-insensitively). */
export const ACTIVITY_KINDS = ['review', 'ticket', 'call', 'survey', 'objection'] as const;

export type SourceType = 'before_after_testimonial' | 'before_after_result' | 'crm_activity' | 'kb_passage';

export interface ProofEntry {
  text: string;
  consent: boolean;
  /** `[^source-id]`, resolved by `citation_definition` placed as its own block. */
  citation: string;
  citation_definition: string;
  kind: ProofKind;
  attribution: string | null;
  source: { type: SourceType; id: string };
}

/** A row a source read, before paraphrase: `names` are the people its text may name (stripped when paraphrased). */
export interface RawProof {
  kind: ProofKind;
  consent: boolean;
  text: string;
  attribution: string | null;
  sourceType: SourceType;
  sourceId: string;
  /** The citation id (`testimonial:<id>` …). */
  citationId: string;
  /** What the citation definition says the source is (never a name for a consent-false entry). */
  describes: string;
  names: string[];
}

export interface SourceReport {
  kind: 'testimonials' | 'results' | 'crm_activities' | 'knowledge_bases';
  ok: boolean;
  count: number;
}

export interface ProofPack {
  data: ProofEntry[];
  sources: SourceReport[];
  notes: string[];
}

/** What narrows a pack, resolved from the query and the content item. */
export interface PackScope {
  kinds: ProofKind[];
  limit: number;
  /** Only this grid (the item's); undefined: the grids picked by avatar/stage, or all. */
  gridId?: string;
  avatarId?: string;
  journeyStage?: string;
  /** Knowledge-base search text; undefined: no search. */
  q?: string;
}
