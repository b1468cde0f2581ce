/** Which provider a failure came from. */
export type ProviderName = 'search' | 'model' | 'page' | 'image' | 'analytics';

/**
 * A coded failure of a provider (web search, chat model, page fetch, image generation). `retryable` tells the caller (a
 * Temporal activity) whether another attempt may succeed. Messages name the provider and what happened, never a
 * key, a header or a response body.
 *
 * Codes: search_unauthorized, search_rate_limited, search_unavailable, search_bad_response; model_unauthorized,
 * model_rate_limited, model_unavailable, model_bad_response; page_timeout, page_too_large, page_status,
 * page_not_html, page_blocked_host, page_too_many_redirects, page_failed, page_bad_url; image_request_rejected,
 * image_provider_auth, image_rate_limited, image_unavailable, image_bad_response, image_too_large (clients/providers/images.ts);
 * analytics_unavailable, analytics_rate_limited, analytics_auth, analytics_site_not_found, analytics_bad_response
 * (clients/providers/analyticsErrors.ts).
 */
export class ProviderError extends Error {
  /** The provider's `Retry-After` on a 429, when it sent one. */
  retryAfterSeconds?: number;
  /** The provider's own `error.code` when it sent a short machine code (e.g. `moderation_blocked`). */
  upstreamCode?: string;

  constructor(
    readonly provider: ProviderName,
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export function isProviderError(err: unknown): err is ProviderError {
  return err instanceof ProviderError;
}

/**
 * The coded error of a non-2xx answer from the search API or the chat model: 401/403 → unauthorized, 429 →
 * rate_limited (retryable), 408 and 5xx → unavailable (retryable), any other status → bad_response.
 */
export function statusError(provider: 'search' | 'model', what: string, status: number, retryAfter?: string | string[]): ProviderError {
  if (status === 401 || status === 403) {
    return new ProviderError(provider, `${provider}_unauthorized`, `${what} rejected the configured API key (${status})`, false, status);
  }
  if (status === 429) {
    const seconds = retryAfterSeconds(retryAfter);
    const err = new ProviderError(
      provider,
      `${provider}_rate_limited`,
      `${what} rate-limited the call${seconds === undefined ? '' : `; retry after ${seconds}s`}`,
      true,
      status,
    );
    err.retryAfterSeconds = seconds;
    return err;
  }
  if (status === 408 || status >= 500) {
    return new ProviderError(provider, `${provider}_unavailable`, `${what} failed with ${status}`, true, status);
  }
  return new ProviderError(provider, `${provider}_bad_response`, `${what} refused the request with ${status}`, false, status);
}

/** A network failure or timeout of the search API or the chat model: unavailable, retryable. */
export function unreachableError(provider: 'search' | 'model' | 'image' | 'analytics', what: string, timedOut: boolean): ProviderError {
  return new ProviderError(
    provider,
    `${provider}_unavailable`,
    `${what} did not answer (${timedOut ? 'timed out' : 'connection failed'})`,
    true,
  );
}

/** `Retry-After` in whole seconds (delta seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - now) / 1000)) : undefined;
}
