import { postOutbound } from '../clients/providers/outboundPost';
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
  const result = await postOutbound(url, body, headers, {
    timeoutMs: options.timeoutMs,
    allowPrivateHosts: options.allowPrivateHosts,
    userAgent: 'Workyard-Webhooks/1.0',
    maxAnswerBytes: MAX_ANSWER_BYTES,
  });
  switch (result.kind) {
    case 'answered':
      return classifyStatus(result.status);
    case 'timeout':
      return { delivered: false, retryable: true, httpStatus: null, error: `no answer within ${options.timeoutMs} ms` };
    case 'blocked_host':
      return { delivered: false, retryable: false, httpStatus: null, error: 'endpoint host resolves to a non-public address' };
    case 'unreachable':
      return { delivered: false, retryable: true, httpStatus: null, error: `endpoint unreachable (${result.code || 'network error'})` };
  }
}

export function classifyStatus(status: number): PostResult {
  if (status >= 200 && status <= 299) return { delivered: true, retryable: false, httpStatus: status, error: null };
  const retryable = status >= 500 || status === 408 || status === 429 || status < 400;
  return { delivered: false, retryable, httpStatus: status, error: `endpoint answered ${status}` };
}
