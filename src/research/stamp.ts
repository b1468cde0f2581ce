import type { ResearchResult } from '../../workflows/research.contract';

/** The spec's bound of `settings.research`, counted as characters of its JSON. */
export const MAX_STAMP_CHARACTERS = 8_000;
/** Sources and gaps kept in the stamp (the artifact keeps them all). */
export const MAX_STAMP_ITEMS = 10;

const CLIP = { claim: 400, quote: 400, title: 200, gap: 300 };

export interface ResearchStamp {
  run_id: string;
  artifact_id: string;
  knowledge_base_id: string;
  researched_at: string;
  topic: string;
  keyword: string | null;
  extraction: ResearchResult['extraction'];
  /** Claims of the run; `claims` holds as many as fit (the artifact holds them all). */
  claim_count: number;
  claims: Array<{ claim: string; quote: string; kind: 'web' | 'kb'; source_url: string | null; confidence_score: number }>;
  source_count: number;
  sources: ResearchResult['sources'];
  gap_count: number;
  gaps: string[];
  serp_query: string | null;
  warning_count: number;
  /** True when claims, sources or gaps were left out (or texts clipped) to stay within 8,000 characters. */
  truncated: boolean;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const size = (stamp: ResearchStamp) => JSON.stringify(stamp).length;

/**
 * The summary of a run kept in the item's `settings.research`: at most 8,000 characters of JSON, sources and gaps
 * trimmed to 10, long texts clipped; then, while it is still too long, the last claims go first, then the last
 * gaps, then the last sources. The artifact it points at (`artifact_id`) keeps everything.
 */
export function buildResearchStamp(result: ResearchResult, researchedAt: string): ResearchStamp {
  const claims = result.claims.map((c) => ({
    claim: clip(c.claim, CLIP.claim),
    quote: clip(c.quote, CLIP.quote),
    kind: c.kind,
    source_url: c.source_url,
    confidence_score: c.confidence_score,
  }));
  const sources = result.sources
    .slice(0, MAX_STAMP_ITEMS)
    .map((s) => ({ ...s, title: s.title === null ? null : clip(s.title, CLIP.title) }));
  const gaps = result.gaps.slice(0, MAX_STAMP_ITEMS).map((g) => clip(g, CLIP.gap));
  const clipped =
    claims.some((c, i) => c.claim !== result.claims[i].claim || c.quote !== result.claims[i].quote) ||
    sources.some((s, i) => s.title !== result.sources[i].title) ||
    gaps.some((g, i) => g !== result.gaps[i]);

  const stamp: ResearchStamp = {
    run_id: result.run_id,
    artifact_id: result.artifact_id,
    knowledge_base_id: result.knowledge_base_id,
    researched_at: researchedAt,
    topic: result.topic,
    keyword: result.keyword,
    extraction: result.extraction,
    claim_count: result.claims.length,
    claims,
    source_count: result.sources.length,
    sources,
    gap_count: result.gaps.length,
    gaps,
    serp_query: result.serp?.query ?? null,
    warning_count: result.warnings.length,
    truncated: clipped || result.sources.length > MAX_STAMP_ITEMS || result.gaps.length > MAX_STAMP_ITEMS,
  };
  for (const list of [stamp.claims, stamp.gaps, stamp.sources] as unknown[][]) {
    while (size(stamp) > MAX_STAMP_CHARACTERS && list.length > 0) {
      list.pop();
      stamp.truncated = true;
    }
  }
  if (size(stamp) > MAX_STAMP_CHARACTERS) {
    // Only a pathological topic or keyword can get here (both are at most 255 characters on every route).
    stamp.topic = clip(stamp.topic, 255);
    stamp.keyword = stamp.keyword === null ? null : clip(stamp.keyword, 255);
    stamp.serp_query = stamp.serp_query === null ? null : clip(stamp.serp_query, 255);
    stamp.truncated = true;
  }
  return stamp;
}
