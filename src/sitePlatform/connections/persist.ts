import { ApiError } from '../../http/errors';
import type { Site, TokenIntrospection } from '../../clients/sitePlatform';
import type { SitePlatformDeps } from './deps';
import { restoreReachableProjects } from './contentSourceFallback';
import { bustCredentials } from './resolve';
import type { Intent } from './state';
import { registerAfterConnect, type ConnectWebhooks } from '../webhooks/connectAnswer';
import { expectedUrlTokenHash } from '../webhooks/registration';
import {
  findActiveDefault,
  findActiveOverride,
  findConnection,
  lockAccount,
  saveBinding,
  setConnectionSites,
  updateConnection,
  insertConnection,
  upsertSites,
  type AuthKind,
  type ConnectionFields,
  type ConnectionRow,
  type SiteFields,
} from './store';
import { siteTokenCipher } from './tokens';

/** What a validated grant (OAuth callback or pasted site token) brings to be stored. */
export interface ValidatedGrant {
  accountId: string;
  intent: Intent;
  authKind: AuthKind;
  token: string;
  introspection: TokenIntrospection;
  sites: Site[];
  authorizedUserEmail: string | null;
  oauthAppId: string | null;
  projectId?: string;
  siteId?: string;
  connectionId?: string;
}

const toSiteFields = (site: Site): SiteFields => ({
  site_id: site.id,
  display_name: site.displayName,
  short_name: site.shortName,
  custom_domains: site.customDomains.map(({ id, url }) => ({ id, url })),
  locales: site.locales as unknown as Record<string, unknown>,
  last_published_at: site.lastPublished ? new Date(site.lastPublished) : null,
});

const connectionNotFound = () =>
  new ApiError(404, 'site_platform_connection_not_found', 'no site platform connection with this id in your account');

/** Inserts the row, or refreshes the one the intent names (same row, token refreshed). */
async function writeConnection(trx: SitePlatformDeps['db'], grant: ValidatedGrant, fields: ConnectionFields): Promise<ConnectionRow> {
  const { accountId } = grant;
  let existing: ConnectionRow | undefined;
  if (grant.intent === 'site_reconnect') {
    existing = grant.connectionId ? await findConnection(trx, accountId, grant.connectionId) : undefined;
    if (!existing) throw connectionNotFound();
    if (existing.disconnected_at)
      throw new ApiError(409, 'site_platform_connection_disconnected', 'a disconnected connection cannot be reconnected; connect again');
  } else if (grant.intent === 'site_project_connect') {
    existing = await findActiveOverride(trx, accountId, grant.projectId!);
  } else {
    existing = await findActiveDefault(trx, accountId);
  }
  if (!existing) return insertConnection(trx, accountId, fields);
  const { purpose: _keep, project_id: _same, ...refresh } = fields;
  const now = trx.fn.now() as unknown as Date;
  return (await updateConnection(trx, accountId, existing.id, {
    ...refresh,
    last_introspected_at: now,
    last_synced_at: now,
    installed_at: now,
  }))!;
}

/** A stored grant and what its best-effort webhook registration reported. */
export interface PersistedGrant {
  connection: ConnectionRow;
  webhooks: ConnectWebhooks;
}

/**
 * Callback step 2 (and the site-token connect): seal the token and write the connection, its sites and, for a
 * project connect, the project's binding in one transaction; then re-read the row under the account's scope and
 * fail the connect if it is not visible. The cache bust after it is best effort and cannot fail the connect.
 */
export async function persistGrant(deps: SitePlatformDeps, grant: ValidatedGrant): Promise<PersistedGrant> {
  // The bound site must be one the grant reaches; any other id (another account's site included) names nothing.
  if (grant.siteId && !grant.sites.some((s) => s.id === grant.siteId)) {
    throw new ApiError(400, 'invalid_reference', '`site_id` is not one of the sites this grant can reach', {
      details: { field: 'site_id' },
    });
  }
  const sealed = siteTokenCipher(deps.config).encrypt(grant.token);
  const fields: ConnectionFields = {
    access_token_enc: sealed,
    auth_kind: grant.authKind,
    purpose: grant.intent === 'site_project_connect' ? 'project_override' : 'account_default',
    project_id: grant.intent === 'site_project_connect' ? grant.projectId! : null,
    scope: grant.introspection.scopes.join(','),
    authorized_user_email: grant.authKind === 'oauth' ? grant.authorizedUserEmail : null,
    workspace_id: grant.introspection.authorizedTo.workspaceIds[0] ?? grant.sites[0]?.workspaceId ?? null,
    rate_limit_per_minute: grant.introspection.rateLimitPerMinute,
    oauth_app_id: grant.oauthAppId,
  };
  const written = await deps.db.transaction(async (trx) => {
    await lockAccount(trx, grant.accountId);
    const written = await writeConnection(trx, grant, fields);
    // The receiver URL's token is derived from the id, never stored; only its SHA-256 is (doc2 Connection record).
    const row = (await updateConnection(trx, grant.accountId, written.id, {
      webhook_url_token_hash: expectedUrlTokenHash(deps.secretHashKey, written.id),
    }))!;
    await upsertSites(trx, grant.accountId, row.id, grant.sites.map(toSiteFields));
    await setConnectionSites(
      trx,
      grant.accountId,
      row.id,
      grant.sites.map((site) => site.id),
    );
    if (grant.intent === 'site_project_connect') {
      const siteId = grant.siteId ?? grant.sites[0]?.id ?? null;
      await saveBinding(trx, grant.accountId, grant.projectId!, { override_mode: 'override', connection_id: row.id, site_id: siteId });
    }
    return row;
  });
  const visible = await findConnection(deps.db, grant.accountId, written.id);
  if (!visible || visible.disconnected_at) {
    throw new ApiError(500, 'site_platform_connect_not_persisted', 'the connection was not visible after it was saved; connect again');
  }
  const webhooks = await runFollowUps(deps, grant.accountId, visible.id);
  return { connection: visible, webhooks };
}

/**
 * Best-effort follow-ups: they log and move on, never fail a connect. The cache bust comes first so the restore
 * resolves with the new connection; webhook registration on every shared site answers its report for the connect.
 */
async function runFollowUps(deps: SitePlatformDeps, accountId: string, connectionId: string): Promise<ConnectWebhooks> {
  try {
    bustCredentials(accountId);
  } catch (err) {
    deps.logger.warn({ accountId, err: (err as Error).name }, 'site platform credential cache bust failed after connect');
  }
  const webhooks = await registerAfterConnect(deps, accountId, connectionId);
  try {
    const restored = await restoreReachableProjects(deps, accountId);
    if (restored.length)
      deps.logger.info({ accountId, projects: restored.length }, 'site platform projects restored to the platform CMS after connect');
  } catch (err) {
    deps.logger.warn({ accountId, err: (err as Error).name }, 'site platform project restore failed after connect');
  }
  return webhooks;
}
