import { sitePlatformErrors } from './errors';
import { countPlatformCall, operationOf } from '../../telemetry/metrics';
import { target } from './pools';

export interface SendSpec {
  /** Readable name for errors, e.g. `GET /v2/sites`. */
  call: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, undefined for an empty body, or MALFORMED. */
  body: unknown;
}

export const MALFORMED = Symbol('malformed');

/** Sends one request with a hard deadline; a missed deadline is 504, any other transport failure 502. */
export async function send(spec: SendSpec): Promise<RawResponse> {
  // A controller and a timer cleared at the end cost a fraction of AbortSignal.timeout's weakly held timer.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), spec.timeoutMs);
  const signal = deadline.signal;
  const operation = operationOf(spec.method, spec.call.slice(spec.call.indexOf(' ') + 1));
  try {
    const { pool, path } = target(spec.url);
    const res = await pool.request({
      path,
      method: spec.method as 'GET',
      headers: spec.headers,
      body: spec.body,
      headersTimeout: spec.timeoutMs,
      bodyTimeout: spec.timeoutMs,
      signal,
    });
    const text = await res.body.text();
    countPlatformCall('site_platform', operation, res.statusCode);
    let body: unknown;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = MALFORMED;
      }
    }
    return { status: res.statusCode, headers: flatten(res.headers), body };
  } catch (err) {
    const timedOut = signal.aborted || isTimeout(err);
    countPlatformCall('site_platform', operation, timedOut ? 'timeout' : 'network');
    if (timedOut) throw sitePlatformErrors.timeout(spec.call, spec.timeoutMs);
    throw sitePlatformErrors.network(spec.call);
  } finally {
    clearTimeout(timer);
  }
}

function isTimeout(err: unknown): boolean {
  const e = err as { code?: string; name?: string };
  return /TIMEOUT/i.test(e?.code ?? '') || e?.name === 'TimeoutError';
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** `Retry-After` as seconds or an HTTP date, in ms; 60 s (the platform's usual answer) when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number {
  if (!value) return 60_000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : 60_000;
}
