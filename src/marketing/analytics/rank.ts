import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { ProviderError } from '../../clients/providers/errors';
import { createWebSearchClient } from '../../clients/providers/webSearch';
import { claimSearchCall } from '../../research/searchUsage';
import { normalizePath } from './paths';

/** An item's position for its target keyword: 1-based among the search provider's top results, null when not among them. */
export interface KeywordRank {
  keyword: string;
  position: number | null;
  measured_at: string;
}

/** The `rank` a daily row stores: the newest measurement (carried forward between measurements) and why it is missing or old. */
export interface StoredRank {
  keywords: KeywordRank[];
  note: string | null;
}

/** Results read per measurement: the search API's largest page. */
export const RANK_DEPTH = 20;

const NO_RANK: StoredRank = { keywords: [], note: null };

/** A stored row's `rank`, read defensively (rows are jsonb): anything malformed reads as no measurement. */
export function rankOf(value: unknown): StoredRank {
  if (!value || typeof value !== 'object') return NO_RANK;
  const v = value as { keywords?: unknown; note?: unknown };
  const keywords = Array.isArray(v.keywords)
    ? v.keywords.filter(
        (k): k is KeywordRank =>
          !!k &&
          typeof k.keyword === 'string' &&
          (k.position === null || Number.isInteger(k.position)) &&
          typeof k.measured_at === 'string',
      )
    : [];
  return { keywords, note: typeof v.note === 'string' ? v.note : null };
}

const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^www\./, '');

/** Whether a search result is the item's page: same host (ignoring `www.`) and the same normalised path. */
export function samePage(resultUrl: string, pageUrl: string): boolean {
  try {
    const a = new URL(resultUrl);
    const b = new URL(pageUrl);
    return hostOf(a) === hostOf(b) && normalizePath(resultUrl) !== null && normalizePath(resultUrl) === normalizePath(pageUrl);
  } catch {
    return false;
  }
}

/** Whether the previous measurement of `keyword` is older than `everyDays` days (or there is none). */
export function rankDue(previous: StoredRank, keyword: string, everyDays: number, now: Date): boolean {
  const last = previous.keywords.find((k) => k.keyword === keyword);
  if (!last) return true;
  return now.getTime() - Date.parse(last.measured_at) >= everyDays * 86_400_000 - 3_600_000;
}

/**
 * Measures the item's position for `keyword` with one web-search call taken from the account's monthly cap (the one
 * research uses). Not configured, the cap reached or the provider failing: the previous measurement is kept, with a note.
 */
export async function measureRank(
  deps: { db: Knex; config: Config },
  accountId: string,
  keyword: string,
  pageUrl: string,
  previous: StoredRank,
  now: Date,
): Promise<StoredRank> {
  const kept = (note: string): StoredRank => ({ keywords: previous.keywords.filter((k) => k.keyword === keyword), note });
  const client = createWebSearchClient(deps.config);
  if (!client) return kept('rank is not measured: web search is not configured (no search API key)');
  if (!(await claimSearchCall(deps.db, accountId, deps.config.SEARCH_MONTHLY_CAP, now))) {
    return kept(`rank is not measured: the monthly web-search cap of ${deps.config.SEARCH_MONTHLY_CAP} calls is reached`);
  }
  try {
    const results = await client.search(keyword, { count: RANK_DEPTH });
    const hit = results.find((r) => samePage(r.url, pageUrl));
    return { keywords: [{ keyword, position: hit?.position ?? null, measured_at: now.toISOString() }], note: null };
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    return kept(`rank is not measured: the search provider did not answer (${err.code})`);
  }
}
