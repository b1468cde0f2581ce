import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import type { SitePlatformDeps } from './deps';
import { requireOwnProject } from '../../projects/service';
import { revokeAuthorization } from '../../clients/sitePlatform';
import { projectsResolvingTo, revertUnreachableProjects } from './contentSourceFallback';
import { chooseOAuthClient } from './oauthClients';
import { bustCredentials } from './resolve';
import { openSealed } from './tokens';
import { listSubscriptions } from '../webhooks/subscriptionsStore';
import { unregisterConnectionWebhooks, type Unregistration } from '../webhooks/unregister';
import {
  findBinding,
  findConnection,
  findSite,
  saveBinding,
  updateConnection,
  type BindingFields,
  type BindingRow,
  type ConnectionRow,
} from './store';

export const connectionNotFound = () =>
  new ApiError(404, 'site_platform_connection_not_found', 'no site platform connection with this id in your account');

export async function requireConnection(deps: SitePlatformDeps, accountId: string, id: string): Promise<ConnectionRow> {
  const row = isUuid(id) ? await findConnection(deps.db, accountId, id) : undefined;
  if (!row) throw connectionNotFound();
  return row;
}

export type Revocation = 'revoked' | 'failed' | 'not_applicable';

/**
 * Revocation is explicit on the platform (OAuth tokens never expire): an OAuth token is revoked with the client that
 * issued it. Best effort: a failure is reported, never blocks the disconnect. Site tokens are revoked by the site's
 * owner in the platform's settings, so there is nothing to call.
 */
async function revoke(deps: SitePlatformDeps, accountId: string, row: ConnectionRow): Promise<Revocation> {
  if (row.auth_kind !== 'oauth' || !row.access_token_enc) return 'not_applicable';
  try {
    const accessToken = openSealed(deps.config, row.access_token_enc).plaintext;
    const client = await chooseOAuthClient(deps, accountId, { oauthAppId: row.oauth_app_id ?? undefined });
    await revokeAuthorization({
      authUrl: deps.config.SITE_PLATFORM_AUTH_URL,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      accessToken,
      timeoutMs: deps.config.SITE_PLATFORM_TIMEOUT_MS,
    });
    return 'revoked';
  } catch (err) {
    deps.logger.warn(
      { accountId, connectionId: row.id, code: err instanceof ApiError ? err.code : (err as Error).name },
      'site platform token revocation failed on disconnect',
    );
    return 'failed';
  }
}

export interface DisconnectOptions {
  /**
   * Call the platform with the token (default true): delete the connection's webhook registrations, then revoke an
   * OAuth token. The token-health sweep skips both: the platform already rejects the token.
   */
  revoke?: boolean;
}

export interface Disconnected {
  connection: ConnectionRow;
  revocation: Revocation;
  revertedProjectIds: string[];
  webhooks: Unregistration;
}

/**
 * Sets disconnected_at and drops the sealed token, so resolution can never return the connection again; busts
 * the account's credential cache; with the token still in memory, deletes the connection's webhook registrations on
 * every site it shares (best effort: what stays is recorded by its subscription rows, and the next registration run on
 * the site removes it) and then revokes an OAuth token (both unless `revoke: false`); projects that resolved to this
 * connection and that no remaining connection reaches fall back to the native CMS (restored by a later connect).
 * Disconnecting a disconnected connection answers it unchanged.
 */
export async function disconnect(
  deps: SitePlatformDeps,
  accountId: string,
  id: string,
  options: DisconnectOptions = {},
): Promise<Disconnected> {
  const row = await requireConnection(deps, accountId, id);
  if (row.disconnected_at) {
    return { connection: row, revocation: 'not_applicable', revertedProjectIds: [], webhooks: await recordedWebhooks(deps, accountId, id) };
  }
  const resolvedHere = await projectsResolvingTo(deps, accountId, id);
  const updated = await updateConnection(deps.db, accountId, id, { disconnected_at: new Date(), access_token_enc: null });
  bustCredentials(accountId);
  const callPlatform = options.revoke !== false;
  const webhooks = callPlatform ? await unregisterConnectionWebhooks(deps, accountId, row) : await recordedWebhooks(deps, accountId, id);
  const revocation = callPlatform ? await revoke(deps, accountId, row) : 'not_applicable';
  const revertedProjectIds = await revertUnreachableProjects(deps, accountId, resolvedHere);
  return { connection: updated!, revocation, revertedProjectIds, webhooks };
}

/** Registrations a disconnected connection leaves on the platform, as its subscription rows record them. */
const recordedWebhooks = async (deps: SitePlatformDeps, accountId: string, connectionId: string): Promise<Unregistration> => ({
  removed: 0,
  remaining: (await listSubscriptions(deps.db, accountId, { connectionId })).length,
});

/**
 * Replaces a project's binding. `override` needs a live connection of the account; a named site must be one of
 * the account's site rows (it is stored as a plain id, not a reference). Another account's connection and site ids
 * behave as missing; another account's binding of the same project id is never read or touched.
 */
export async function setBinding(deps: SitePlatformDeps, accountId: string, projectId: string, fields: BindingFields): Promise<BindingRow> {
  await requireOwnProject(deps.db, accountId, projectId);
  if (fields.override_mode === 'override' && !fields.connection_id) {
    throw new ApiError(400, 'validation_failed', '`connection_id` is required when override_mode is override', {
      errors: [{ path: 'body.connection_id', message: 'is required for override' }],
    });
  }
  if (fields.connection_id) {
    const connection = isUuid(fields.connection_id) ? await findConnection(deps.db, accountId, fields.connection_id) : undefined;
    if (!connection)
      throw new ApiError(400, 'invalid_reference', '`connection_id` names no site platform connection in your account', {
        details: { field: 'connection_id' },
      });
    if (connection.disconnected_at)
      throw new ApiError(409, 'site_platform_connection_disconnected', 'the connection is disconnected; reconnect it or pick another');
  }
  if (fields.site_id && !(await findSite(deps.db, accountId, fields.site_id))) {
    throw new ApiError(400, 'invalid_reference', '`site_id` names no site in your account', { details: { field: 'site_id' } });
  }
  const row = await saveBinding(deps.db, accountId, projectId, fields);
  bustCredentials(accountId);
  return row;
}

/** The binding of an own project (404 project_not_found otherwise), or undefined while it has none. */
export async function bindingOfProject(deps: SitePlatformDeps, accountId: string, projectId: string): Promise<BindingRow | undefined> {
  await requireOwnProject(deps.db, accountId, projectId);
  return findBinding(deps.db, accountId, projectId);
}

export { listConnections, listOAuthClients, listSites, listSitesOfConnection } from './store';
