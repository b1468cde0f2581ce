import { ApiError } from '../../http/errors';

/**
 * The coded errors of platform calls. None carries a token, a client secret or a request body: messages name the
 * shop and the call only.
 */
export const commerceErrors = {
  unreachable: (call: string, reason: 'timeout' | 'network') =>
    new ApiError(
      503,
      'commerce_unavailable',
      `the commerce platform did not answer ${call} (${reason === 'timeout' ? 'timed out' : 'connection failed'})`,
      { details: { reason } },
    ),
  upstream5xx: (call: string, status: number) =>
    new ApiError(502, 'commerce_unavailable', `the commerce platform failed ${call} with ${status}`, { upstreamStatus: status }),
  malformed: (call: string, status: number) =>
    new ApiError(502, 'commerce_unavailable', `the commerce platform answered ${call} with a malformed body`, {
      upstreamStatus: status,
      details: { reason: 'malformed_response' },
    }),
  rateLimited: (call: string, retryAfterSeconds: number) =>
    new ApiError(429, 'commerce_rate_limited', `the commerce platform rate-limited ${call}; retry after ${retryAfterSeconds}s`, {
      retryAfterSeconds,
      upstreamStatus: 429,
    }),
  unauthorized: (call: string, status: number) =>
    new ApiError(502, 'commerce_unauthorized', `the shop rejected the stored access token on ${call}; reconnect the shop`, {
      upstreamStatus: status,
    }),
  rejected: (call: string, status: number, detail: string) =>
    new ApiError(502, 'commerce_request_rejected', `the commerce platform rejected ${call} with ${status}${detail ? `: ${detail}` : ''}`, {
      upstreamStatus: status,
    }),
};

/** A short, single-line summary of the platform's `errors` member (never echoing request headers or bodies). */
export function platformErrorDetail(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const errors = body as { errors?: unknown; error_description?: unknown; error?: unknown };
  const value = errors.errors ?? errors.error_description ?? errors.error;
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(/\s+/g, ' ').slice(0, 200);
}
