import { ApiError } from '../../http/errors';

/**
 * The coded errors of site platform calls. Messages name the call (method and path) and the platform's own code and
 * message; never the token, a client secret or a request body.
 */
const CONFLICT_CODES = new Set(['ecommerce_not_enabled', 'forms_require_republish']);

export interface PlatformErrorBody {
  code?: string;
  message?: string;
  details?: Array<{ param?: string; description?: string }>;
  /** OAuth endpoints answer `{ error, error_description }`. */
  error?: string;
  error_description?: string;
}

export function readErrorBody(body: unknown): PlatformErrorBody {
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const details = Array.isArray(b.details)
    ? b.details
        .filter((d): d is Record<string, unknown> => !!d && typeof d === 'object')
        .map((d) => ({ param: str(d.param), description: str(d.description) }))
    : undefined;
  return { code: str(b.code), message: str(b.message), details, error: str(b.error), error_description: str(b.error_description) };
}

function oneLine(text: string | undefined): string {
  return text ? `: ${text.replace(/\s+/g, ' ').slice(0, 200)}` : '';
}

export const sitePlatformErrors = {
  rateLimitedLocally: (call: string, retryAfterSeconds: number) =>
    new ApiError(
      429,
      'rate_limited',
      `the connection's site platform budget is spent; ${call} not sent, retry after ${retryAfterSeconds}s`,
      { retryAfterSeconds },
    ),
  rateLimitedRemotely: (call: string, retryAfterSeconds: number) =>
    new ApiError(429, 'rate_limited', `the site platform rate-limited ${call}; retry after ${retryAfterSeconds}s`, {
      retryAfterSeconds,
      upstreamStatus: 429,
    }),
  timeout: (call: string, timeoutMs: number) =>
    new ApiError(504, 'platform_timeout', `the site platform did not answer ${call} within ${timeoutMs} ms`),
  network: (call: string) => new ApiError(502, 'platform_upstream', `the site platform could not be reached for ${call}`),
  malformed: (call: string, status: number) =>
    new ApiError(502, 'platform_upstream', `the site platform answered ${call} with a malformed body`, {
      upstreamStatus: status,
      details: { reason: 'malformed_response' },
    }),

  /** Maps a platform error answer (status ≥ 400, not a 429) onto the spec's error table. */
  fromResponse(call: string, status: number, body: unknown): ApiError {
    const b = readErrorBody(body);
    const platformCode = b.code ?? b.error;
    const detail = oneLine(b.message ?? b.error_description);
    const extra = { upstreamStatus: status, details: platformCode ? { platform_code: platformCode } : undefined };
    if (status === 401) return new ApiError(401, 'platform_auth', `the site platform rejected the stored token on ${call}${detail}`, extra);
    if (status === 402) return new ApiError(402, 'not_enterprise_plan_site', `${call} needs an Enterprise workspace${detail}`, extra);
    if (status === 403 && platformCode === 'missing_scopes') {
      return new ApiError(412, 'missing_scopes', `the grant lacks a scope ${call} needs${detail}`, extra);
    }
    if (status === 403) return new ApiError(403, 'platform_forbidden', `the site platform refused ${call}${detail}`, extra);
    if (status === 404) {
      const code = platformCode && /^[a-z][a-z_]*_not_found$/.test(platformCode) ? platformCode : 'resource_not_found';
      return new ApiError(404, code, `not found on the site platform: ${call}${detail}`, extra);
    }
    if (status === 409) {
      const code = platformCode && CONFLICT_CODES.has(platformCode) ? platformCode : 'conflict';
      return new ApiError(409, code, `the site platform refused ${call} with a conflict${detail}`, extra);
    }
    if (status === 400 || status === 422) {
      const errors = (b.details ?? []).map((d) => ({ path: d.param ?? '', message: d.description ?? '' }));
      return new ApiError(422, 'platform_validation', `the site platform refused the payload of ${call}${detail}`, {
        ...extra,
        errors: errors.length > 0 ? errors : undefined,
      });
    }
    return new ApiError(502, 'platform_upstream', `the site platform failed ${call} with ${status}${detail}`, extra);
  },
};
