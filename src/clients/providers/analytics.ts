import type { Config } from '../../config';
import { ANALYTICS_API, analyticsStatusError } from './analyticsErrors';
import { parseQueryAnswer, type QueryRow } from './analyticsAnswer';
import { callJson } from './jsonCall';

/** A Stats API v2 `date_range`: a preset relative to the site's today, or inclusive ISO dates `[from, to]`. */
export type AnalyticsRange = 'day' | '7d' | '28d' | '30d' | '91d' | 'month' | '6mo' | '12mo' | 'year' | 'all' | readonly [string, string];

export interface PageTraffic {
  pageviews: number;
  visitors: number;
}

export interface PageStats extends PageTraffic {
  form_submits: number;
}

export interface DailyStats extends PageTraffic {
  /** `YYYY-MM-DD` in the site's time zone (the collector's days). */
  date: string;
}

export interface AnalyticsClient {
  /** Pageviews and visitors per path: one query. A path without traffic in the range is absent, never zero. */
  pageTraffic(siteId: string, paths: string[], range: AnalyticsRange, signal?: AbortSignal): Promise<Map<string, PageTraffic>>;
  /** Form-submit goal conversions (`events`) per path: one query. A path without conversions is absent. */
  pageFormSubmits(siteId: string, paths: string[], range: AnalyticsRange, signal?: AbortSignal): Promise<Map<string, number>>;
  /**
   * Both of the above, as two queries sent at once. A path is present when either has it; its other figures are then
   * real zeros (the collector answered, and had nothing).
   */
  pageStats(siteId: string, paths: string[], range: AnalyticsRange, signal?: AbortSignal): Promise<Map<string, PageStats>>;
  /** One path per day from `from` to `to` inclusive (ISO dates): one query; days without traffic are answered as zeros. */
  dailyStats(siteId: string, path: string, from: string, to: string, signal?: AbortSignal): Promise<DailyStats[]>;
}

/** More paths than any caller sends in one query (the views batch takes 200); the API's own page is 10,000 rows. */
export const MAX_PATHS_PER_QUERY = 1000;
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * A client of the Plausible Stats API v2 (`POST <ANALYTICS_API_URL>/api/v2/query`, `Authorization: Bearer <key>`);
 * null when ANALYTICS_API_KEY is unset. Every method sends exactly the queries it names, never one per path, and does
 * not retry: callers (Temporal activities, the views batch) decide. Failures are coded ProviderErrors (provider
 * `analytics`, see analyticsErrors.ts); the key never appears in a message.
 */
export function createAnalyticsClient(
  config: Pick<Config, 'ANALYTICS_API_URL' | 'ANALYTICS_API_KEY' | 'ANALYTICS_TIMEOUT_MS' | 'ANALYTICS_FORM_GOAL'>,
): AnalyticsClient | null {
  const key = config.ANALYTICS_API_KEY;
  if (!key) return null;
  const endpoint = `${config.ANALYTICS_API_URL.replace(/\/+$/, '')}/api/v2/query`;

  async function query(siteId: string, body: Record<string, unknown>, metrics: string[], signal?: AbortSignal): Promise<QueryRow[]> {
    const answer = await callJson('analytics', ANALYTICS_API, endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ site_id: siteId, metrics, ...body }),
      timeoutMs: config.ANALYTICS_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
      signal,
    });
    if (answer.status < 200 || answer.status > 299)
      throw analyticsStatusError(answer.status, siteId, answer.headers['retry-after'], answer.json);
    return parseQueryAnswer(answer.json, metrics.length, answer.status);
  }

  const byPage = (paths: string[], range: AnalyticsRange, extraFilters: unknown[] = []) => {
    const unique = checkedPaths(paths);
    // One row per asked path at most, so one page always holds the whole answer.
    return {
      date_range: range,
      dimensions: ['event:page'],
      filters: [['is', 'event:page', unique], ...extraFilters],
      pagination: { limit: unique.length, offset: 0 },
    };
  };

  const client: AnalyticsClient = {
    async pageTraffic(siteId, paths, range, signal) {
      if (paths.length === 0) return new Map();
      const rows = await query(siteId, byPage(paths, range), ['pageviews', 'visitors'], signal);
      return new Map(rows.map((r) => [r.dimensions[0], { pageviews: r.metrics[0], visitors: r.metrics[1] }]));
    },
    async pageFormSubmits(siteId, paths, range, signal) {
      if (paths.length === 0) return new Map();
      const goal = ['is', 'event:goal', [config.ANALYTICS_FORM_GOAL]];
      const rows = await query(siteId, byPage(paths, range, [goal]), ['events'], signal);
      return new Map(rows.map((r) => [r.dimensions[0], r.metrics[0]]));
    },
    async pageStats(siteId, paths, range, signal) {
      const [traffic, submits] = await Promise.all([
        client.pageTraffic(siteId, paths, range, signal),
        client.pageFormSubmits(siteId, paths, range, signal),
      ]);
      const stats = new Map<string, PageStats>();
      for (const path of new Set([...traffic.keys(), ...submits.keys()])) {
        const t = traffic.get(path);
        stats.set(path, { pageviews: t?.pageviews ?? 0, visitors: t?.visitors ?? 0, form_submits: submits.get(path) ?? 0 });
      }
      return stats;
    },
    async dailyStats(siteId, path, from, to, signal) {
      const days = daysBetween(from, to);
      const rows = await query(
        siteId,
        { date_range: [from, to], dimensions: ['time:day'], filters: [['is', 'event:page', checkedPaths([path])]] },
        ['pageviews', 'visitors'],
        signal,
      );
      const byDay = new Map(rows.map((r) => [r.dimensions[0], r.metrics]));
      return days.map((date) => ({ date, pageviews: byDay.get(date)?.[0] ?? 0, visitors: byDay.get(date)?.[1] ?? 0 }));
    },
  };
  return client;
}

function checkedPaths(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  if (unique.length > MAX_PATHS_PER_QUERY) throw new RangeError(`at most ${MAX_PATHS_PER_QUERY} paths per query, ${unique.length} given`);
  return unique;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Every ISO date from `from` to `to` inclusive (at most ~10 years); a reversed or malformed range is a caller bug. */
export function daysBetween(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (!ISO_DATE.test(from) || !ISO_DATE.test(to) || Number.isNaN(start) || Number.isNaN(end) || end < start) {
    throw new RangeError(`not an ISO date range: ${from}..${to}`);
  }
  const days: string[] = [];
  for (let t = start; t <= end && days.length < 3700; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}
