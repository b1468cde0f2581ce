import { ApiError } from '../../http/errors';
import type { SitePlatformDeps } from './deps';
import { persistGrant, type PersistedGrant } from './persist';
import { validateToken } from './platform';
import { requireOwnProject } from '../../projects/service';
import { siteTokenCipher } from './tokens';

export const MIN_SITE_TOKEN_LENGTH = 20;

/**
 * A pasted site API token: validated with introspect and the site list before anything is stored, then stored
 * like an OAuth grant with auth_kind site_token. The token never appears in an answer, error or log.
 */
export async function connectSiteToken(
  deps: SitePlatformDeps,
  accountId: string,
  input: { token: string; project_id?: string; site_id?: string },
): Promise<PersistedGrant> {
  siteTokenCipher(deps.config);
  if (input.project_id) await requireOwnProject(deps.db, accountId, input.project_id);
  const validated = await validateToken(
    deps,
    input.token,
    false,
    () => new ApiError(400, 'invalid_site_token', 'the platform did not accept this site token'),
  );
  if (input.site_id && !validated.sites.some((s) => s.id === input.site_id)) {
    throw new ApiError(400, 'invalid_reference', '`site_id` is not one of the sites this token can reach', {
      details: { field: 'site_id' },
    });
  }
  return persistGrant(deps, {
    accountId,
    intent: input.project_id ? 'site_project_connect' : 'site_account_connect',
    authKind: 'site_token',
    token: input.token,
    ...validated,
    oauthAppId: null,
    projectId: input.project_id,
    siteId: input.site_id,
  });
}
