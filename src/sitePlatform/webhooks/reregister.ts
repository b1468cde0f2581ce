import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import type { SitePlatformDeps } from '../connections/deps';
import { findConnection } from '../connections/store';
import { registerConnectionWebhooks, type RegistrationReport } from './registration';

/**
 * POST …/connections/{id}/reregister-webhooks: re-registers the receiver webhooks on every site of the connection at
 * the current URL. 404 when the id is not one of the account's connections (a malformed id too), 409 when it is
 * disconnected, 412 oauth_required for a site token (the platform registers webhooks for OAuth apps only), all
 * before any platform call.
 */
export async function reregisterWebhooks(
  deps: SitePlatformDeps,
  accountId: string,
  connectionId: string,
): Promise<{ connection_id: string; sites: RegistrationReport['sites'] }> {
  const row = isUuid(connectionId) ? await findConnection(deps.db, accountId, connectionId) : undefined;
  if (!row) throw new ApiError(404, 'site_platform_connection_not_found', 'no site platform connection with this id in your account');
  if (row.disconnected_at || !row.access_token_enc)
    throw new ApiError(409, 'site_platform_connection_disconnected', 'the connection is disconnected; connect again');
  if (row.auth_kind !== 'oauth')
    throw new ApiError(
      412,
      'oauth_required',
      'the platform registers webhooks only for OAuth connections; add them by hand (see the inbox) or connect with OAuth',
    );
  const report = await registerConnectionWebhooks(deps, accountId, row.id);
  return { connection_id: row.id, sites: report.sites };
}
