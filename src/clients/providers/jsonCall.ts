import type { Readable } from 'node:stream';
import { request } from 'undici';
import { ProviderError, unreachableError } from './errors';
import { readLimitedBody } from './pageBody';

export interface JsonCall {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /** Largest answer read; a bigger one is `<provider>_bad_response`. */
  maxBytes: number;
  signal?: AbortSignal;
}

export interface JsonAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON, or `undefined` when the body was empty or not JSON. */
  json: unknown;
}

/**
 * One HTTP call to a JSON API of a provider within `timeoutMs` (headers and the whole body). Network failures and
 * timeouts become `<provider>_unavailable`; a cancelled `signal` rethrows its reason. `what` names the API in
 * messages (never the URL's query, a header or the body).
 */
export async function callJson(
  provider: 'search' | 'model' | 'image' | 'analytics',
  what: string,
  url: string | URL,
  call: JsonCall,
): Promise<JsonAnswer> {
  const deadline = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([deadline, call.signal]) : deadline;
  try {
    const res = await request(url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal,
      headersTimeout: call.timeoutMs,
      bodyTimeout: call.timeoutMs,
    });
    let bytes: Buffer;
    try {
      bytes = await readLimitedBody(res.body as unknown as Readable, headerValue(res.headers['content-encoding']), call.maxBytes);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new ProviderError(
        provider,
        `${provider}_bad_response`,
        `${what} sent an unreadable or oversized answer`,
        false,
        res.statusCode,
      );
    }
    return { status: res.statusCode, headers: res.headers, json: parseJson(bytes) };
  } catch (err) {
    if (call.signal?.aborted) throw call.signal.reason;
    if (err instanceof ProviderError) throw err;
    throw unreachableError(provider, what, deadline.aborted || /TIMEOUT/.test(String((err as { code?: unknown }).code)));
  }
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
