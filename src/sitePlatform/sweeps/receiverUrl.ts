import type { SitePlatformDeps } from '../connections/deps';

/**
 * Why no current receiver URL can be built, if so: the URL needs PUBLIC_APP_URL, and its token is an HMAC under
 * SECRET_HASH_KEY (without it a sweep would move every registration to a URL the receiver refuses).
 */
export function receiverUrlProblem(deps: Pick<SitePlatformDeps, 'config' | 'secretHashKey'>): string | undefined {
  if (!deps.config.PUBLIC_APP_URL) return 'public_app_url_not_configured';
  if (!deps.secretHashKey) return 'secret_hash_key_not_configured';
  return undefined;
}
