import { createHash } from 'node:crypto';
import type { Config } from '../config';
import type { Knex } from '../db/knex';
import * as knowledge from '../knowledge/service';
import { getContent, stampResearch } from '../marketing/content/service';
import { createChatClient } from '../clients/providers/chatCompletions';
import { fetchReadablePage, type FetchedPage } from '../clients/providers/pageFetch';
import { createWebSearchClient } from '../clients/providers/webSearch';
import { extractClaims, type ExtractedClaim } from './claims/extract';
import { quoteInPassage } from './claims/quotes';
import type { PageTextCache } from './pageTexts';
import { claimSearchCall } from './searchUsage';
import { buildResearchStamp } from './stamp';
import {
  MAX_PAGE_CHARACTERS,
  MAX_SOURCES,
  type ArtifactInput,
  type ArtifactOutcome,
  type Extraction,
  type IndexPageInput,
  type IndexPageOutcome,
  type KnowledgeStep,
  type PageInput,
  type PageOutcome,
  type ResearchClaim,
  type ResearchSubject,
  type SearchStep,
  type StampInput,
} from '../../workflows/research.contract';

/**
 * The steps of a research run, one function per activity (activities/research.ts adds heartbeats, cancellation
 * and the mapping of errors onto Temporal failures). Page text stays here: the workflow sees claims and hashes.
 */
export interface StepDeps {
  config: Config;
  db: Knex;
}

export const RESEARCH_ARTIFACT_TYPE = 'content_research';
/** Knowledge-base passages read for claims, best first, and claims asked per passage and per page. */
const KB_PASSAGES = 5;
const CLAIMS_PER_PASSAGE = 3;
const CLAIMS_PER_PAGE = 5;

export function extractionOf(config: Config): Extraction {
  return createChatClient(config) ? 'model' : 'fallback';
}

/** What is researched: the item's title and keyword (read now, at the start), or the topic as sent. */
export async function readSubject(
  deps: StepDeps,
  input: { accountId: string; contentId: string | null; topic: string; keyword: string | null },
): Promise<ResearchSubject> {
  let { topic, keyword } = input;
  if (input.contentId) {
    const item = await getContent(deps.db, input.accountId, input.contentId);
    topic = item.title;
    keyword = item.target_keyword;
  }
  return { topic, keyword, extraction: extractionOf(deps.config), fetchConcurrency: deps.config.RESEARCH_FETCH_CONCURRENCY };
}

/**
 * Every knowledge base of the account searched for the keyword (or topic); claims from the best passages, each with a
 * quote found verbatim in its passage. Passages of earlier research artifacts are left out in the query itself (they
 * only repeat claims whose sources the knowledge bases hold), so they never take the places of the passages kept.
 */
export async function knowledgeStep(
  deps: StepDeps,
  input: { accountId: string; topic: string; keyword: string | null },
  signal?: AbortSignal,
): Promise<KnowledgeStep> {
  const bases = await knowledge.listKnowledgeBases(deps.db, input.accountId);
  const best = await knowledge.searchPassages(deps.db, input.accountId, input.keyword ?? input.topic, {
    excludeArtifactTypes: [RESEARCH_ARTIFACT_TYPE],
    limit: KB_PASSAGES,
  });
  const chat = createChatClient(deps.config);
  const extracted = await Promise.all(
    best.map(async (hit) => {
      const { extraction, claims } = await extractClaims(chat, {
        topic: input.topic,
        keyword: input.keyword,
        text: hit.text,
        maxClaims: CLAIMS_PER_PASSAGE,
        signal,
      });
      return verified(claims, hit.text, (c) => toClaim(c, 'kb', null, extraction));
    }),
  );
  const dropped = extracted.reduce((n, e) => n + e.dropped, 0);
  return {
    claims: extracted.flatMap((e) => e.claims),
    warnings: dropped > 0 ? [`dropped ${dropped} knowledge-base ${plural(dropped, 'claim')}: the quote is not in its passage`] : [],
    knowledgeBases: bases.length,
    passages: best.length,
  };
}

/**
 * The web search of the run. Without a key, or with the account's monthly cap reached, serp is null and a warning
 * says why. The cap is claimed on the first attempt only, so Temporal's retries of one search count once (a worker
 * lost before its claim under-counts one call rather than double-counting).
 */
export async function searchStep(
  deps: StepDeps,
  input: { accountId: string; query: string },
  attempt: number,
  signal?: AbortSignal,
): Promise<SearchStep> {
  const client = createWebSearchClient(deps.config);
  if (!client) return { serp: null, warnings: ['web search is not configured (no search API key): serp is null and no web page was read'] };
  const cap = deps.config.SEARCH_MONTHLY_CAP;
  if (attempt === 1 && !(await claimSearchCall(deps.db, input.accountId, cap))) {
    return {
      serp: null,
      warnings: [`the monthly web-search cap of ${cap} ${plural(cap, 'call')} is reached: serp is null and no web page was read`],
    };
  }
  const results = await client.search(input.query, { count: MAX_SOURCES, signal });
  return {
    serp: {
      query: input.query,
      results: results.map((r) => ({ position: r.position, title: clean(r.title), url: r.url, description: clean(r.description) })),
    },
    warnings: [],
  };
}

/**
 * One web page: fetched, reduced to readable text, claims extracted with verbatim quotes. A page over 60,000
 * characters is a gap. The text is kept in the worker's cache for the indexing step; only its hash is returned.
 */
export async function pageStep(deps: StepDeps, texts: PageTextCache, input: PageInput, signal?: AbortSignal): Promise<PageOutcome> {
  const page = await fetchPage(deps.config, input.url, signal);
  if (page.text.length > MAX_PAGE_CHARACTERS) {
    return {
      status: 'gap',
      url: input.url,
      gap: `${input.url}: skipped, ${page.text.length} characters of readable text is over the ${MAX_PAGE_CHARACTERS} limit`,
    };
  }
  const { extraction, claims } = await extractClaims(createChatClient(deps.config), {
    topic: input.topic,
    keyword: input.keyword,
    text: page.text,
    maxClaims: CLAIMS_PER_PAGE,
    signal,
  });
  const checked = verified(claims, page.text, (c) => toClaim(c, 'web', input.url, extraction));
  const textHash = hashOf(page.text);
  texts.put(input.accountId, input.url, textHash, page.text);
  return {
    status: 'read',
    url: input.url,
    title: clean(page.title ?? '') || input.serpTitle,
    claims: checked.claims,
    textHash,
    characters: page.text.length,
    warnings:
      checked.dropped > 0
        ? [`dropped ${checked.dropped} ${plural(checked.dropped, 'claim')} from ${input.url}: the quote is not in the page text`]
        : [],
  };
}

/**
 * Indexes a used page into the account's research knowledge base. A known URL is never indexed again. The text is
 * the one the claims came from (cache), or the page read again when it still holds every quote.
 */
export async function indexStep(
  deps: StepDeps,
  texts: PageTextCache,
  input: IndexPageInput,
  signal?: AbortSignal,
): Promise<IndexPageOutcome> {
  const kb = await knowledge.ensureResearchKnowledgeBase(deps.db, input.accountId);
  if (await knowledge.isUrlIndexed(deps.db, input.accountId, kb.id, input.url))
    return { indexed: true, already_indexed: true, warning: null };
  let text = texts.get(input.accountId, input.url, input.textHash);
  if (text === undefined) {
    const again = (await fetchPage(deps.config, input.url, signal)).text;
    if (hashOf(again) !== input.textHash && !input.quotes.every((q) => quoteInPassage(q, again))) {
      return { indexed: false, already_indexed: false, warning: `${input.url}: not indexed, the page changed after its claims were taken` };
    }
    text = again;
  }
  const done = await knowledge.indexDocument(deps.db, input.accountId, kb.id, { sourceUrl: input.url, title: input.title, text });
  return { indexed: true, already_indexed: done.alreadyIndexed, warning: null };
}

/** The run's artifact, one per item (or per topic and keyword): a re-run refreshes it. */
export async function artifactStep(deps: StepDeps, input: ArtifactInput): Promise<ArtifactOutcome> {
  const kb = await knowledge.ensureResearchKnowledgeBase(deps.db, input.accountId);
  const { artifact, created } = await knowledge.upsertArtifact(deps.db, input.accountId, kb.id, {
    artifactType: RESEARCH_ARTIFACT_TYPE,
    key: artifactKey(input),
    contentId: input.contentId,
    contentJson: {
      content_id: input.contentId,
      topic: input.topic,
      keyword: input.keyword,
      claims: input.claims,
      sources: input.sources,
      serp: input.serp,
      gaps: input.gaps,
      warnings: input.warnings,
      researched_at: input.researchedAt,
    },
  });
  return { knowledgeBaseId: kb.id, artifactId: artifact.id, created };
}

/** `settings.research` of the item, written last; an item deleted meanwhile is reported, not failed. */
export async function stampStep(deps: StepDeps, input: StampInput): Promise<{ warning: string | null }> {
  try {
    await stampResearch(deps.db, input.accountId, input.contentId, buildResearchStamp(input.result, input.researchedAt));
    return { warning: null };
  } catch (err) {
    if ((err as { code?: string }).code === 'content_not_found')
      return { warning: 'the content item was deleted during the run: settings.research was not stamped' };
    throw err;
  }
}

export function artifactKey(input: { contentId: string | null; topic: string; keyword: string | null }): string {
  if (input.contentId) return `content:${input.contentId}`;
  const norm = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return `topic:${norm(input.topic)}${input.keyword ? `|${norm(input.keyword)}` : ''}`;
}

async function fetchPage(config: Config, url: string, signal?: AbortSignal): Promise<FetchedPage> {
  return fetchReadablePage(url, {
    timeoutMs: config.FETCH_TIMEOUT_MS,
    maxBytes: config.FETCH_MAX_BYTES,
    allowPrivateHosts: config.FETCH_ALLOW_PRIVATE_HOSTS,
    signal,
  });
}

/** Claims whose quote is in `text`, and how many were dropped because it is not. */
function verified(
  claims: ExtractedClaim[],
  text: string,
  map: (c: ExtractedClaim) => ResearchClaim,
): { claims: ResearchClaim[]; dropped: number } {
  const kept = claims.filter((c) => quoteInPassage(c.quote, text));
  return { claims: kept.map(map), dropped: claims.length - kept.length };
}

function toClaim(c: ExtractedClaim, kind: 'web' | 'kb', sourceUrl: string | null, extraction: Extraction): ResearchClaim {
  return {
    claim: clean(c.claim),
    quote: clean(c.quote),
    kind,
    source_url: sourceUrl,
    extraction,
    confidence_score: extraction === 'fallback' ? 0 : c.confidence_score,
  };
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** Control characters (NUL above all) cannot be stored in jsonb; they carry no meaning in a claim or a title. */
const clean = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '').trim();

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);
