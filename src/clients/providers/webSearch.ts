import { z } from 'zod';
import type { Config } from '../../config';
import { ProviderError, statusError } from './errors';
import { snippetText } from './htmlSnippet';
import { callJson } from './jsonCall';

export interface SearchResult {
  position: number;
  title: string;
  url: string;
  description: string;
}

export interface WebSearchClient {
  /** Web results for `query`, best first (`position` from 1); `count` is clamped to the API's 1..20. */
  search(query: string, options: { count: number; signal?: AbortSignal }): Promise<SearchResult[]>;
}

const WHAT = 'the search API';
/** The API's limits: 400 characters of query, 20 results per call. */
const MAX_QUERY_CHARACTERS = 400;
const MAX_COUNT = 20;

const answerSchema = z.object({
  web: z.object({ results: z.array(z.unknown()) }).optional(),
});
const resultSchema = z.object({ title: z.string(), url: z.string(), description: z.string().optional() });

/**
 * A client of a web-search API speaking the Brave Search API protocol: `GET <SEARCH_API_URL>?q=&count=` with
 * `X-Subscription-Token`. Null when no key is configured. It does not retry: callers (Temporal activities) retry
 * errors marked retryable.
 */
export function createWebSearchClient(
  config: Pick<Config, 'SEARCH_API_URL' | 'SEARCH_API_KEY' | 'FETCH_TIMEOUT_MS'>,
): WebSearchClient | null {
  const key = config.SEARCH_API_KEY;
  if (!key) return null;
  return {
    async search(query, options) {
      const q = query.trim().slice(0, MAX_QUERY_CHARACTERS);
      if (!q) return [];
      const count = Math.min(MAX_COUNT, Math.max(1, Math.floor(options.count) || 1));
      const url = new URL(config.SEARCH_API_URL);
      url.searchParams.set('q', q);
      url.searchParams.set('count', String(count));
      const answer = await callJson('search', WHAT, url, {
        method: 'GET',
        headers: { accept: 'application/json', 'x-subscription-token': key },
        timeoutMs: config.FETCH_TIMEOUT_MS,
        maxBytes: 2 * 1024 * 1024,
        signal: options.signal,
      });
      if (answer.status < 200 || answer.status > 299) throw statusError('search', WHAT, answer.status, answer.headers['retry-after']);
      const parsed = answerSchema.safeParse(answer.json);
      if (!parsed.success) {
        throw new ProviderError(
          'search',
          'search_bad_response',
          `${WHAT} answered with a body that is not a search result`,
          false,
          answer.status,
        );
      }
      return webResults(parsed.data.web?.results ?? [], count);
    },
  };
}

/** Well-formed http(s) results, first occurrence of each URL, titles and descriptions as plain text. */
function webResults(items: unknown[], count: number): SearchResult[] {
  const results: SearchResult[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const parsed = resultSchema.safeParse(item);
    if (!parsed.success || !/^https?:\/\//i.test(parsed.data.url) || seen.has(parsed.data.url)) continue;
    seen.add(parsed.data.url);
    results.push({
      position: results.length + 1,
      title: snippetText(parsed.data.title),
      url: parsed.data.url,
      description: snippetText(parsed.data.description ?? ''),
    });
    if (results.length === count) break;
  }
  return results;
}
