import { isUuid } from '../../http/ids';
import { cacheKeyOf, CREDENTIAL_TTL_MS, CredentialCache } from './cache';
import { nowOf, type SitePlatformDeps } from './deps';
import {
  connectionReaches,
  findActiveDefault,
  findBinding,
  findConnection,
  liveConnectionsReaching,
  rewrapToken,
  type AuthKind,
  type ConnectionRow,
  type SiteRow,
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

/** The row when it is usable for the target: live, and reaching the site when one is named. */
async function usable(
  deps: SitePlatformDeps,
  accountId: string,
  row: ConnectionRow | undefined,
  siteId: string | null,
): Promise<ConnectionRow | undefined> {
  if (!live(row)) return undefined;
  return !siteId || (await connectionReaches(deps.db, accountId, row.id, siteId)) ? row : undefined;
}

export interface PickedConnection {
  row: ConnectionRow;
  siteId: string | null;
  source: ResolutionSource;
}

/**
 * The connection the rules pick (doc2 Resolution rule), before any decryption. Override first (its own connection,
 * while live and reaching the site), then the account default, then none. Each connection answers with its own
 * credentials: a site shared by several connections never lets one stand in for another. Only an account-level call
 * (no project) whose site the default does not reach falls back to a live connection holding that site; a project
 * never borrows another project's override.
 */
export async function pickConnection(
  deps: SitePlatformDeps,
  accountId: string,
  projectId?: string,
  siteId?: string,
): Promise<PickedConnection | null> {
  const binding = projectId && isUuid(projectId) ? await findBinding(deps.db, accountId, projectId) : undefined;
  if (binding?.override_mode === 'disabled') return null;
  const target = siteId ?? binding?.site_id ?? null;

  if (binding?.override_mode === 'override' && binding.connection_id) {
    const own = await usable(deps, accountId, await findConnection(deps.db, accountId, binding.connection_id), target);
    if (own) return { row: own, siteId: target, source: 'override' };
    // A dead override, or one whose grant no longer reaches the site, falls through to the account default.
  }

  const fallback = await usable(deps, accountId, await findActiveDefault(deps.db, accountId), target);
  if (fallback) return { row: fallback, siteId: target, source: 'account_default' };

  if (projectId || !target) return null;
  const [holder] = await liveConnectionsReaching(deps.db, accountId, target);
  return holder ? { row: holder, siteId: target, source: 'site_row' } : null;
}

/** Past this age a served entry is refreshed in the background, so a request waits on resolution only when cold. */
const REFRESH_AFTER_MS = 45_000;
/** Resolutions under way, per cache key and bust generation: concurrent misses share one. */
const inFlight = new Map<string, Promise<ResolvedCredentials | null>>();

/**
 * The credentials for a call on behalf of an account (and optionally a project and a site): override first, then
 * the account default, then none (null). Cached 60 s per (account, project, site); an entry older than 45 s is
 * served while one background resolution replaces it, and concurrent misses share one resolution. A resolution that
 * a bust (connect, reconnect, disconnect) overtook is not stored. A token still sealed under the previous key is
 * re-sealed under the current one and written back.
 */
export async function resolveCredentials(
  deps: SitePlatformDeps,
  accountId: string,
  target: { projectId?: string; siteId?: string } = {},
): Promise<ResolvedCredentials | null> {
  const now = nowOf(deps);
  const entry = credentialCache.entry(accountId, target.projectId, target.siteId, now);
  if (!entry) return resolveShared(deps, accountId, target);
  if (entry.expiresAt - now < CREDENTIAL_TTL_MS - REFRESH_AFTER_MS) {
    resolveShared(deps, accountId, target).catch((err: unknown) => {
      deps.logger.warn({ accountId, err: (err as Error).name }, 'site platform credential refresh failed; the next call resolves again');
    });
  }
  return entry.value;
}

function resolveShared(
  deps: SitePlatformDeps,
  accountId: string,
  target: { projectId?: string; siteId?: string },
): Promise<ResolvedCredentials | null> {
  const generation = credentialCache.generation(accountId);
  const key = `${cacheKeyOf(accountId, target.projectId, target.siteId)}#${generation}`;
  let pending = inFlight.get(key);
  if (!pending) {
    const startedAt = nowOf(deps);
    pending = resolveNow(deps, accountId, target)
      .then((resolved) => {
        credentialCache.set(accountId, target.projectId, target.siteId, resolved, startedAt, generation);
        return resolved;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function resolveNow(
  deps: SitePlatformDeps,
  accountId: string,
  target: { projectId?: string; siteId?: string },
): Promise<ResolvedCredentials | null> {
  const picked = await pickConnection(deps, accountId, target.projectId, target.siteId);
  if (!picked) return null;
  const envelope = picked.row.access_token_enc!;
  const { plaintext, resealed } = openSealed(deps.config, envelope);
  if (resealed) await rewrapToken(deps.db, accountId, picked.row.id, envelope, resealed);
  return {
    connectionId: picked.row.id,
    authKind: picked.row.auth_kind,
    scope: picked.row.scope,
    rateLimitPerMinute: picked.row.rate_limit_per_minute,
    siteId: picked.siteId,
    source: picked.source,
    token: plaintext,
  };
}
