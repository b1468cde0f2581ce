import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FailureQueue, sendJson, sendRaw, startLoopbackServer, type LoopbackServer } from '../pages/loopback';
import { errorBody, searchBody, type StoredResult } from './answers';

export interface SearchSimulator {
  /** The full endpoint, for SEARCH_API_URL. */
  url: string;
  apiKey: string;
  /** Results for an exact query (case and outer spaces ignored), or for every other query with '*'. */
  setResults(query: string | '*', results: StoredResult[]): void;
  /** Every request received, in order. */
  calls: Array<{ q: string; count: number }>;
  /** The next `times` authorised requests answer `status` (a 429 carries Retry-After: 1). */
  failNext(times: number, status: number): void;
  /** The next `times` authorised requests answer 200 with a cut-off JSON body. */
  malformedNext(times: number): void;
  /** Milliseconds every request waits before it is answered (timeouts on demand). */
  delayMs: number;
  stop(): Promise<void>;
}

const PATH = '/res/v1/web/search';
const MAX_COUNT = 20;
const DEFAULT_COUNT = 20;

/**
 * A loopback web-search API speaking the Brave Search API protocol: `GET /res/v1/web/search?q=&count=` with
 * `X-Subscription-Token` (401 otherwise), Brave-shaped answers and error bodies, rate-limit headers.
 */
export async function startSearchSimulator(options: { apiKey?: string } = {}): Promise<SearchSimulator> {
  const apiKey = options.apiKey ?? `BSA${randomBytes(12).toString('hex')}`;
  const results = new Map<string, StoredResult[]>();
  const failures = new FailureQueue();
  const malformed = new FailureQueue();

  const sim: SearchSimulator = {
    url: '',
    apiKey,
    setResults: (query, list) =>
      void results.set(
        query === '*' ? '*' : normalise(query),
        list.map((r) => ({ ...r })),
      ),
    calls: [],
    failNext: (times, status) => failures.arm(times, status),
    malformedNext: (times) => malformed.arm(times, 200),
    delayMs: 0,
    stop: () => server.stop(),
  };

  async function handle(req: IncomingMessage, res: ServerResponse, loopback: LoopbackServer): Promise<void> {
    const url = new URL(req.url ?? '/', loopback.origin);
    if (url.pathname !== PATH) return sendJson(res, 404, errorBody(404, 'NOT_FOUND', 'Resource not found.'));
    if (req.method !== 'GET') return sendJson(res, 405, errorBody(405, 'METHOD_NOT_ALLOWED', 'Method not allowed.'));
    const q = url.searchParams.get('q') ?? '';
    const requested = url.searchParams.has('count') ? Number(url.searchParams.get('count')) : DEFAULT_COUNT;
    sim.calls.push({ q, count: requested });
    await loopback.wait(sim.delayMs);
    if (req.headers['x-subscription-token'] !== apiKey) {
      return sendJson(
        res,
        401,
        errorBody(401, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.', { component: 'authentication' }),
      );
    }
    const failure = failures.take();
    if (failure !== undefined) return fail(res, failure);
    if (malformed.take() !== undefined)
      return sendRaw(res, 200, '{"type":"search","web":{"results":[{"title":"Cut', { 'content-type': 'application/json' });
    if (!q.trim() || !Number.isInteger(requested) || requested < 1) {
      return sendJson(res, 422, errorBody(422, 'VALIDATION', 'Unable to validate request parameter(s).', { component: 'validation' }));
    }
    const matched = results.get(normalise(q)) ?? results.get('*') ?? [];
    sendJson(res, 200, searchBody(q, matched.slice(0, Math.min(requested, MAX_COUNT))), rateLimitHeaders(1));
  }

  const server = await startLoopbackServer(handle);
  sim.url = `${server.origin}${PATH}`;
  return sim;
}

function fail(res: ServerResponse, status: number): void {
  if (status === 429) {
    const detail = 'Request rate limit exceeded for plan.';
    return sendJson(
      res,
      429,
      errorBody(429, 'RATE_LIMITED', detail, { plan: 'Free', rate_limit: 1, rate_current: 2, component: 'rate_limiter' }),
      {
        ...rateLimitHeaders(0),
        'retry-after': '1',
      },
    );
  }
  sendJson(res, status, errorBody(status, status >= 500 ? 'SERVER_ERROR' : 'REQUEST_FAILED', 'The request could not be served.'));
}

/** Brave's per-second and per-month windows: `limit, monthly`. */
function rateLimitHeaders(remainingThisSecond: number): Record<string, string> {
  return {
    'x-ratelimit-limit': '1, 15000',
    'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
    'x-ratelimit-remaining': `${remainingThisSecond}, 14000`,
    'x-ratelimit-reset': '1, 1209600',
  };
}

function normalise(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}
