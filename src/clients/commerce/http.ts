import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { throttleDelayMs, parseCallLimit } from './callLimit';
import { commerceErrors, platformErrorDetail } from './errors';
import { parsePlatformJson } from './json';
import { countPlatformCall } from '../../telemetry/metrics';
import type { CallLimit } from './types';

export interface HttpOptions {
  /** Headers and body each must arrive within this (default 10 s). */
  timeoutMs: number;
  /** 429s retried after their `Retry-After` (default 2), when the wait is at most `maxRetryWaitMs` (default 10 s). */
  maxRateLimitRetries: number;
  maxRetryWaitMs: number;
}

export interface PlatformCall {
  /** Readable name for errors and logs, e.g. `GET orders.json`. */
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  shopDomain: string;
  accessToken?: string;
  json?: unknown;
}

export interface PlatformResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** `Retry-After` as seconds (the platform sends decimals like `2.0`) or an HTTP date; 1 s when absent. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return 1000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds * 1000));
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : 1000;
}

/**
 * One platform call: waits for room in the shop's leaky bucket, sends with explicit timeouts, retries 429s after
 * `Retry-After` a bounded number of times, and maps every failure to a coded ApiError.
 */
export function createPlatformHttp(options: HttpOptions) {
  const limits = new Map<string, CallLimit>();

  async function send(call: PlatformCall): Promise<PlatformResponse> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (call.accessToken) headers['x-commerce-access-token'] = call.accessToken;
    if (call.json !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await request(call.url, {
        method: call.method,
        headers,
        body: call.json === undefined ? undefined : JSON.stringify(call.json),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const text = await res.body.text();
      countPlatformCall('commerce', call.name, res.statusCode);
      let body: unknown = undefined;
      if (text) {
        try {
          body = parsePlatformJson(text);
        } catch {
          body = MALFORMED;
        }
      }
      return { status: res.statusCode, headers: res.headers, body };
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      const failure = /TIMEOUT/i.test(code) ? 'timeout' : 'network';
      countPlatformCall('commerce', call.name, failure);
      throw commerceErrors.unreachable(call.name, failure);
    }
  }

  async function call(spec: PlatformCall): Promise<PlatformResponse> {
    for (let attempt = 0; ; attempt += 1) {
      const wait = Math.min(throttleDelayMs(limits.get(spec.shopDomain)), options.maxRetryWaitMs);
      if (wait > 0) await sleep(wait);
      const res = await send(spec);
      const limit = parseCallLimit(res.headers['x-commerce-shop-api-call-limit']);
      if (limit) limits.set(spec.shopDomain, limit);

      if (res.status === 429) {
        const retryMs = retryAfterMs(res.headers['retry-after']);
        if (attempt < options.maxRateLimitRetries && retryMs <= options.maxRetryWaitMs) {
          await sleep(retryMs);
          continue;
        }
        throw commerceErrors.rateLimited(spec.name, Math.max(1, Math.ceil(retryMs / 1000)));
      }
      if (res.status >= 500) throw commerceErrors.upstream5xx(spec.name, res.status);
      if ((res.status === 401 || res.status === 403) && spec.accessToken) throw commerceErrors.unauthorized(spec.name, res.status);
      if (res.status >= 400) throw commerceErrors.rejected(spec.name, res.status, platformErrorDetail(res.body));
      if (res.body === MALFORMED) throw commerceErrors.malformed(spec.name, res.status);
      return res;
    }
  }

  return { call, callLimit: (shopDomain: string) => limits.get(shopDomain) };
}

const MALFORMED = Symbol('malformed');
