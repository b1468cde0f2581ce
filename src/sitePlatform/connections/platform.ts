import { ApiError } from '../../http/errors';
import { createSitePlatformClient, type Site, type SitePlatformClient, type TokenIntrospection } from '../../clients/sitePlatform';
import type { SitePlatformDeps } from './deps';

export const platformClient = (deps: SitePlatformDeps, token: string): SitePlatformClient =>
  createSitePlatformClient({ apiUrl: deps.config.SITE_PLATFORM_API_URL, token, timeoutMs: deps.config.SITE_PLATFORM_TIMEOUT_MS });

export interface Validation {
  introspection: TokenIntrospection;
  sites: Site[];
  authorizedUserEmail: string | null;
}

/**
 * Reads what a fresh token grants: introspection, its sites and, for OAuth, the authorizing user's email. A
 * token the platform rejects becomes `rejected` (the caller's coded 400); other platform failures pass through.
 */
export async function validateToken(deps: SitePlatformDeps, token: string, oauth: boolean, rejected: () => ApiError): Promise<Validation> {
  const client = platformClient(deps, token);
  try {
    const introspection = await client.introspect();
    const sites = await client.listSites();
    // The email is informative only: an older grant without authorized_user:read still connects.
    const authorizedUserEmail = oauth
      ? await client.authorizedBy().then(
          (u) => u.email,
          () => null,
        )
      : null;
    return { introspection, sites, authorizedUserEmail };
  } catch (err) {
    if (err instanceof ApiError && (err.code === 'platform_auth' || err.status === 403)) throw rejected();
    throw err;
  }
}
