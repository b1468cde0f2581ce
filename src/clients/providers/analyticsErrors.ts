import { ProviderError, retryAfterSeconds } from './errors';

export const ANALYTICS_API = 'the web analytics API';

/**
 * The coded error of a non-2xx answer of the Stats API (its body is `{ error: "<message>" }`):
 * - 401/403 → analytics_auth. The reference answers the same 401 ("Invalid API key or site ID") for a wrong key and
 *   for a site the key cannot see, so such a 401 also carries `upstreamCode: 'invalid_key_or_site'`: a caller that
 *   saw the same key succeed for another site may treat it as the site being unknown.
 * - 404 → analytics_site_not_found (self-hosted instances and proxies that say so plainly).
 * - 429 → analytics_rate_limited (retryable, with Retry-After when sent).
 * - 408 and 5xx → analytics_unavailable (retryable).
 * - 400 and other 4xx → analytics_bad_response: our query was refused, so another try cannot help.
 * The upstream message is never copied into ours (it may echo the query).
 */
export function analyticsStatusError(
  status: number,
  siteId: string,
  retryAfter: string | string[] | undefined,
  json: unknown,
): ProviderError {
  const upstream = (json as { error?: unknown } | undefined)?.error;
  if (status === 401 || status === 403) {
    const err = new ProviderError(
      'analytics',
      'analytics_auth',
      `${ANALYTICS_API} rejected the configured API key or its access to site ${siteId} (${status})`,
      false,
      status,
    );
    if (typeof upstream === 'string' && /site id/i.test(upstream)) err.upstreamCode = 'invalid_key_or_site';
    return err;
  }
  if (status === 404) {
    return new ProviderError('analytics', 'analytics_site_not_found', `${ANALYTICS_API} does not know site ${siteId}`, false, status);
  }
  if (status === 429) {
    const seconds = retryAfterSeconds(retryAfter);
    const err = new ProviderError(
      'analytics',
      'analytics_rate_limited',
      `${ANALYTICS_API} rate-limited the query${seconds === undefined ? '' : `; retry after ${seconds}s`}`,
      true,
      status,
    );
    err.retryAfterSeconds = seconds;
    return err;
  }
  if (status === 408 || status >= 500) {
    return new ProviderError('analytics', 'analytics_unavailable', `${ANALYTICS_API} failed with ${status}`, true, status);
  }
  return analyticsBadResponse(`refused the query with ${status}`, status);
}

export const analyticsBadResponse = (what: string, status?: number) =>
  new ProviderError('analytics', 'analytics_bad_response', `${ANALYTICS_API} ${what}`, false, status);
