import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../kit/readBody';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../pages/loopback';
import { isoDay } from './dateRange';
import { evaluate } from './evaluate';
import { parseQuery } from './query';
import { SeededTraffic, type SeededDay } from './traffic';

export type { SeededDay } from './traffic';

/** One POST to /api/v2/query as received: the site asked about, the parsed body (null when not JSON) and the answer's status. */
export interface AnalyticsSimRequest {
  siteId: string | null;
  body: Record<string, unknown> | null;
  status: number;
}

export interface AnalyticsSimulator {
  /** The origin for ANALYTICS_API_URL (the client adds /api/v2/query). */
  url: string;
  apiKey: string;
  /** The goal whose conversions are the seeded form submits. */
  formGoal: string;
  /** Every query that got an answer (any status), in order; connections dropped by unreachable() are not logged. */
  requests: AnalyticsSimRequest[];
  /** Milliseconds before each answer (a client's timeout shorter than this fails). */
  delayMs: number;
  /** Sets the counts of these days of one page of a site; a site comes into being with its first seed. */
  seed(siteId: string, path: string, days: SeededDay[]): void;
  /** A site the key can see, with no traffic yet. */
  addSite(siteId: string): void;
  /** `refuse` (default): every connection is dropped before an answer; `503`: every query answers 503. */
  unreachable(mode?: 'refuse' | '503'): void;
  reachable(): void;
  /** The next `times` authorised queries answer `status` (a 429 carries Retry-After: 60). */
  failNext(times: number, status: number): void;
  /** The next `times` valid queries answer 200 with a body that is not a query result. */
  malformedNext(times: number): void;
  /** Drops seeded traffic, armed failures, the delay, the request log and unreachability. */
  reset(): void;
  stop(): Promise<void>;
}

export interface AnalyticsSimulatorOptions {
  apiKey?: string;
  formGoal?: string;
  /** "Today" for relative date ranges; default the real clock. */
  now?: () => Date;
  /** How a site the key cannot see is answered: 401 like the reference (default) or 404 like some proxies. */
  unknownSiteStatus?: 401 | 404;
}

const MAX_BODY_BYTES = 1024 * 1024;
const MISSING_KEY = 'Missing API key. Please use a valid Plausible API key as a Bearer Token.';
const INVALID_KEY = "Invalid API key or site ID. Please make sure you're using a valid API key with access to the site you've requested.";

/**
 * A loopback Plausible Stats API v2: `POST /api/v2/query` with `Authorization: Bearer <key>`, answering
 * `{ results: [{ metrics, dimensions }], meta, query }` from seeded traffic, and `{ error: "..." }` with the
 * reference's statuses (400 bad query, 401 key or site, 429 rate limit). It can be made unreachable, slow or failing.
 */
export async function startAnalyticsSimulator(options: AnalyticsSimulatorOptions = {}): Promise<AnalyticsSimulator> {
  const apiKey = options.apiKey ?? `plausible-sim-${randomBytes(16).toString('hex')}`;
  const now = options.now ?? (() => new Date());
  const traffic = new SeededTraffic();
  let down: 'refuse' | '503' | null = null;
  let faults: number[] = [];
  let malformed = 0;

  const sim: AnalyticsSimulator = {
    url: '',
    apiKey,
    formGoal: options.formGoal ?? 'Form: Submission',
    requests: [],
    delayMs: 0,
    seed: (siteId, path, days) => traffic.seed(siteId, path, days),
    addSite: (siteId) => traffic.addSite(siteId),
    unreachable: (mode = 'refuse') => void (down = mode),
    reachable: () => void (down = null),
    failNext: (times, status) => void (faults = [...faults, ...Array<number>(times).fill(status)]),
    malformedNext: (times) => void (malformed += times),
    reset: () => {
      traffic.clear();
      faults = [];
      malformed = 0;
      down = null;
      sim.delayMs = 0;
      sim.requests = [];
    },
    stop: () => server.stop(),
  };

  async function handle(req: IncomingMessage, res: ServerResponse, loopback: LoopbackServer): Promise<void> {
    if (down === 'refuse') return void req.socket.destroy();
    const { pathname } = new URL(req.url ?? '/', loopback.origin);
    if (pathname !== '/api/v2/query' || req.method !== 'POST') return sendJson(res, 404, { error: 'Not found' });
    const raw = await readBody(req, MAX_BODY_BYTES);
    const body = raw ? parseObject(raw.toString('utf8')) : undefined;
    const record: AnalyticsSimRequest = { siteId: typeof body?.site_id === 'string' ? body.site_id : null, body: body ?? null, status: 0 };
    sim.requests.push(record);
    await loopback.wait(sim.delayMs);
    const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      sendJson(res, status, json, headers);
    };
    if (down === '503') return answer(503, { error: 'Service Unavailable' });

    const presented = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1]?.trim();
    if (!presented) return answer(401, { error: MISSING_KEY });
    if (presented !== apiKey) return answer(401, { error: INVALID_KEY });
    const fault = faults.shift();
    if (fault === 429) {
      return answer(429, { error: 'Too many API requests. Your API key is limited to 600 requests per hour.' }, { 'retry-after': '60' });
    }
    if (fault) return answer(fault, { error: fault >= 500 ? 'Internal server error' : 'Simulated failure' });
    if (!body) return answer(400, { error: 'Invalid request body: expected a JSON object.' });
    if (typeof body.site_id !== 'string' || body.site_id === '') {
      return answer(400, { error: 'Missing site ID. Please provide the required site_id parameter with your request.' });
    }
    if (!traffic.hasSite(body.site_id)) return answer(options.unknownSiteStatus ?? 401, { error: INVALID_KEY });

    const parsed = parseQuery(body, now());
    if ('error' in parsed) return answer(400, { error: parsed.error });
    const { query } = parsed;
    const unknownGoal = query.filters.find(
      (f) => f.dimension === 'event:goal' && f.operator === 'is' && f.clauses.some((c) => c !== sim.formGoal),
    );
    if (unknownGoal) {
      const goal = unknownGoal.clauses.find((c) => c !== sim.formGoal);
      return answer(400, {
        error: `The goal \`${goal}\` is not configured for this site. Find out how to configure goals here: https://plausible.io/docs/stats-api#filtering-by-goals`,
      });
    }
    if (malformed > 0) {
      malformed -= 1;
      return answer(200, { results: [{ metrics: ['many'], dimensions: [] }], meta: {} });
    }
    const rows = traffic.rows(query.siteId, query.range);
    const { rows: results, total } = evaluate(query, rows, sim.formGoal);
    const from = query.range.from ?? rows.reduce((min, r) => (r.date < min ? r.date : min), query.range.to);
    answer(200, {
      results,
      meta: query.totalRows ? { total_rows: total } : {},
      query: {
        site_id: query.siteId,
        metrics: query.metrics,
        date_range: [`${from}T00:00:00+00:00`, `${query.range.to}T23:59:59+00:00`],
        filters: body.filters ?? [],
        dimensions: body.dimensions ?? [],
        order_by: body.order_by ?? defaultOrder(query.dimensionNames, query.metrics),
        include: body.include ?? {},
        pagination: { limit: query.limit, offset: query.offset },
      },
    });
  }

  const server = await startLoopbackServer(handle);
  sim.url = server.origin;
  return sim;
}

/** Consecutive days ending `lastDate` (ISO), oldest first: a helper for seeding. */
export function daysEnding(lastDate: string, count: number): string[] {
  const end = Date.parse(`${lastDate}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => isoDay(end - (count - 1 - i) * 86_400_000));
}

function defaultOrder(dimensions: string[], metrics: string[]): Array<[string, string]> {
  const time = dimensions.find((d) => d.startsWith('time'));
  return time ? [[time, 'asc']] : [[metrics[0], 'desc']];
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
