import { Agent, request } from 'undici';
import { BLOCKED_HOST_CODE, publicOnlyLookup } from '../../providers/safeLookup';
import { webhookUrlProblem } from './endpointUrl';

export interface PostOptions {
  timeoutMs: number;
  allowPrivateHosts: boolean;
}

/**
 * What one POST came to. `retryable` follows the delivery rule: 2xx delivered; 4xx other than 408 and 429 final;
 * 5xx, 408, 429, 3xx (redirects are not followed), timeouts and network errors retried. A URL or host the service
 * may not reach is final.
 */
export interface PostResult {
  delivered: boolean;
  retryable: boolean;
  httpStatus: number | null;
  /** For the delivery record; never holds the body, a header or the secret. */
  error: string | null;
}

/** Largest part of a receiver's answer read before the connection is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

export async function postWebhook(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const problem = webhookUrlProblem(url, options.allowPrivateHosts);
  if (problem) return { delivered: false, retryable: false, httpStatus: null, error: `endpoint URL ${problem}` };
  const agent = new Agent({
    connect: { timeout: options.timeoutMs, ...(options.allowPrivateHosts ? {} : { lookup: publicOnlyLookup }) },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      body,
      dispatcher: agent,
      signal: deadline,
      headers: { 'content-type': 'application/json', 'user-agent': 'Workyard-Webhooks/1.0', ...headers },
    });
    await response.body.dump({ limit: MAX_ANSWER_BYTES }).catch(() => undefined);
    return classifyStatus(response.statusCode);
  } catch (err) {
    if (deadline.aborted) return { delivered: false, retryable: true, httpStatus: null, error: `no answer within ${options.timeoutMs} ms` };
    return networkFailure(err);
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

export function classifyStatus(status: number): PostResult {
  if (status >= 200 && status <= 299) return { delivered: true, retryable: false, httpStatus: status, error: null };
  const retryable = status >= 500 || status === 408 || status === 429 || status < 400;
  return { delivered: false, retryable, httpStatus: status, error: `endpoint answered ${status}` };
}

function networkFailure(err: unknown): PostResult {
  const code = errorCode(err);
  if (code === BLOCKED_HOST_CODE)
    return { delivered: false, retryable: false, httpStatus: null, error: 'endpoint host resolves to a non-public address' };
  if (/^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(code))
    return { delivered: false, retryable: true, httpStatus: null, error: 'endpoint did not answer in time' };
  return { delivered: false, retryable: true, httpStatus: null, error: `endpoint unreachable (${code || 'network error'})` };
}

/** undici wraps socket errors; the code that explains the failure may sit on a cause. */
function errorCode(err: unknown): string {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth += 1) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET') return e.code;
  }
  return '';
}
