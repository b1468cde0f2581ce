import { isUuid } from '../../http/ids';
import { CredentialCache } from './cache';
import { nowOf, type SitePlatformDeps } from './deps';
import {
  findActiveDefault, findBinding, findConnection, findSite, findSiteOfConnection, rewrapToken, type AuthKind, type ConnectionRow, type SiteRow,
} from './store';
import { openSealed } from './tokens';

export type ResolutionSource = 'override' | 'account_default' | 'site_row';

/** What a platform call needs. `token` is plaintext: keep it in memory, never return or log it. */
export interface ResolvedCredentials {
  connectionId: string;
  authKind: AuthKind;
  scope: string | null;
  rateLimitPerMinute: number | null;
  /** The platform site id the call targets; null when neither the caller nor the binding names one. */
  siteId: string | null;
  source: ResolutionSource;
  token: string;
}

/** One per process; busted on disconnect, connect and reconnect. */
export const credentialCache = new CredentialCache<ResolvedCredentials | null>();

/** The account's site rows (ownership and locales) ride on the same 60 s lifetime and the same busts. */
export const siteRowCache = new CredentialCache<SiteRow>();
export const bustCredentials = (accountId: string) => {
  credentialCache.bustAccount(accountId);
  siteRowCache.bustAccount(accountId);
};

const live = (row: ConnectionRow | undefined): row is ConnectionRow => !!row && !row.disconnected_at && !!row.access_token_enc;

async function liveConnection(deps: SitePlatformDeps, accountId: string, id: string | null | undefined) {
  if (!id) return undefined;
  const row = await findConnection(deps.db, accountId, id);
  return live(row) ? row : undefined;
}

/** The connection the rules pick (doc2 Resolution rule), before any decryption. */
async function pick(deps: SitePlatformDeps, accountId: string, projectId?: string, siteId?: string): Promise<{ row: ConnectionRow; siteId: string | null; source: ResolutionSource } | null> {
  const binding = projectId && isUuid(projectId) ? await findBinding(deps.db, accountId, projectId) : undefined;
  if (binding?.override_mode === 'disabled') return null;

  if (binding?.override_mode === 'override') {
    const target = siteId ?? binding.site_id ?? null;
    // A reconnect can move the bound site to another connection: follow the site's live row.
    const siteRow = target ? await findSite(deps.db, accountId, target) : undefined;
    const followed = await liveConnection(deps, accountId, siteRow?.connection_id);
    if (followed) return { row: followed, siteId: target, source: 'override' };
    const own = await liveConnection(deps, accountId, binding.connection_id);
    if (own) return { row: own, siteId: target, source: 'override' };
    // A dead override falls through to the account default (override, then default, then none).
  }

  const target = siteId ?? binding?.site_id ?? null;
  const fallback = await findActiveDefault(deps.db, accountId);
  const defaultRow = live(fallback) ? fallback : undefined;
  if (defaultRow && (!target || await findSiteOfConnection(deps.db, accountId, defaultRow.id, target))) {
    return { row: defaultRow, siteId: target, source: 'account_default' };
  }
  // The requested site is not on the default connection: the account's own row for that site names its connection.
  if (target) {
    const siteRow = await findSite(deps.db, accountId, target);
    const owner = await liveConnection(deps, accountId, siteRow?.connection_id);
    if (owner) return { row: owner, siteId: target, source: 'site_row' };
  }
  return null;
}

/**
 * The credentials for a call on behalf of an account (and optionally a project and a site): override first, then
 * the account default, then none (null). Cached 60 s per (account, project, site). A token still sealed under
 * the previous key is re-sealed under the current one and written back.
 */
export async function resolveCredentials(deps: SitePlatformDeps, accountId: string, target: { projectId?: string; siteId?: string } = {}): Promise<ResolvedCredentials | null> {
  const now = nowOf(deps);
  const cached = credentialCache.get(accountId, target.projectId, target.siteId, now);
  if (cached !== undefined) return cached;

  const picked = await pick(deps, accountId, target.projectId, target.siteId);
  let resolved: ResolvedCredentials | null = null;
  if (picked) {
    const envelope = picked.row.access_token_enc!;
    const { plaintext, resealed } = openSealed(deps.config, envelope);
    if (resealed) await rewrapToken(deps.db, accountId, picked.row.id, envelope, resealed);
    resolved = {
      connectionId: picked.row.id, authKind: picked.row.auth_kind, scope: picked.row.scope,
      rateLimitPerMinute: picked.row.rate_limit_per_minute, siteId: picked.siteId, source: picked.source, token: plaintext,
    };
  }
  credentialCache.set(accountId, target.projectId, target.siteId, resolved, now);
  return resolved;
}
