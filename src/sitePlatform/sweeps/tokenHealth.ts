import { ApiError } from '../../http/errors';
import { raiseInboxItem } from '../../inbox/service';
import { nowOf, type SitePlatformDeps } from '../connections/deps';
import { bustCredentials } from '../connections/resolve';
import { disconnect } from '../connections/service';
import { rewrapToken } from '../connections/store';
import { openSealed, siteTokenCipher } from '../connections/tokens';
import { clientFor } from '../operations/clients';
import type { ConnectionRef } from '../../../workflows/sitePlatformSweeps.contract';
import type { TokenCheckResult, TokenPage } from '../../../workflows/sitePlatformTokenHealth.contract';
import * as store from './store';
import type { PageRequest } from './store';

export type { PageRequest };

/**
 * The disconnect condition of the token-health sweep (docs/site-platform.md, "Site platform sweeps"): the platform rejected the
 * stored token (401 platform_auth on GET /token/introspect) on REJECTIONS_TO_DISCONNECT checks in a row, each at
 * least REJECTION_SPACING_MINUTES after the previous counted one, with no successful introspection between them.
 * A success starts the count over; anything else (5xx, timeout, rate limit, network, a malformed answer, a 403)
 * is "unknown": it neither counts nor resets.
 */
export const REJECTIONS_TO_DISCONNECT = 2;
export const REJECTION_SPACING_MINUTES = 60;

export const TOKEN_DISCONNECTED_KIND = 'site_platform_token_disconnected';
export const tokenDisconnectedDedupKey = (connectionId: string) => `site-platform:token-disconnected:${connectionId}`;
export const TOKEN_UNREADABLE_KIND = 'site_platform_token_unreadable';
export const tokenUnreadableDedupKey = (connectionId: string) => `site-platform:token-unreadable:${connectionId}`;

/** One page of live connections to introspect; `configured: false` when no token key is set (nothing can be read). */
export async function tokenHealthPage(deps: SitePlatformDeps, page: PageRequest): Promise<TokenPage> {
  try {
    siteTokenCipher(deps.config);
  } catch (err) {
    if (err instanceof ApiError) return { configured: false, code: err.code };
    throw err;
  }
  const connections = await store.liveConnectionsPage(deps.db, page);
  return {
    configured: true,
    connections,
    next: connections.length === page.limit ? connections[connections.length - 1].connectionId : null,
  };
}

/**
 * Checks one connection's token: re-wraps it under the current key when it was sealed under the previous one, then
 * introspects it. A success resets the rejection count and refreshes scope, rate limit and last_introspected_at; a
 * rejection counts as the disconnect condition says, and at the threshold the connection is disconnected — the
 * disconnect route's effects without the revoke call — when `mayDisconnect`, else reported `disconnect_cap`.
 * Platform failures come back as results; a database failure throws (the activity retries).
 */
export async function checkConnectionToken(
  deps: SitePlatformDeps,
  ref: ConnectionRef,
  options: { mayDisconnect: boolean },
): Promise<TokenCheckResult> {
  const row = await store.findHealthConnection(deps.db, ref.accountId, ref.connectionId);
  if (row && sweptJustNow(deps, row)) return finishDisconnect(deps, ref, row, row.token_rejections, true, undefined);
  if (!row || row.disconnected_at || !row.access_token_enc) return { status: 'skipped', rewrapped: false };

  let sealed = row.access_token_enc;
  let token: string;
  let rewrapped = false;
  try {
    const opened = openSealed(deps.config, sealed);
    token = opened.plaintext;
    if (opened.resealed) {
      await rewrapToken(deps.db, ref.accountId, ref.connectionId, sealed, opened.resealed);
      sealed = opened.resealed;
      rewrapped = true;
    }
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const { created } = await raiseInboxItem(deps.db, ref.accountId, {
      kind: TOKEN_UNREADABLE_KIND,
      urgency: 'urgent',
      dedupKey: tokenUnreadableDedupKey(ref.connectionId),
      title: 'A site platform credential cannot be decrypted',
      body: {
        connection_id: ref.connectionId,
        code: err.code,
        hint: 'Restore SITE_PLATFORM_TOKEN_ENCRYPTION_KEY (or set the old key as SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS), or reconnect the site.',
      },
    });
    return { status: 'failed', rewrapped: false, code: err.code, inboxItemCreated: created };
  }

  // The connection's shared bucket: the sweep's one call counts against the same per-minute budget as every other.
  const client = clientFor(deps.config, ref.connectionId, token);
  try {
    const introspection = await client.introspect();
    const scope = introspection.scopes.join(',');
    const changed = scope !== row.scope || introspection.rateLimitPerMinute !== row.rate_limit_per_minute;
    const written = await store.recordTokenAccepted(deps.db, ref.accountId, ref.connectionId, sealed, {
      scope,
      rate_limit_per_minute: introspection.rateLimitPerMinute,
    });
    if (!written) return { status: 'skipped', rewrapped };
    if (changed) bustCredentials(ref.accountId);
    return { status: 'healthy', rewrapped, rejections: 0 };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code !== 'platform_auth') return { status: 'unknown', rewrapped, code: err.code };
  }

  const vote = await store.recordTokenRejected(deps.db, ref.accountId, ref.connectionId, sealed, REJECTION_SPACING_MINUTES);
  if (!vote) return { status: 'skipped', rewrapped };
  if (vote.rejections < REJECTIONS_TO_DISCONNECT)
    return { status: 'rejected', rewrapped, rejections: vote.rejections, counted: vote.counted };
  if (!options.mayDisconnect) return { status: 'disconnect_cap', rewrapped, rejections: vote.rejections, counted: vote.counted };
  return disconnectRejected(deps, ref, sealed, { rewrapped, rejections: vote.rejections, counted: vote.counted });
}

async function disconnectRejected(
  deps: SitePlatformDeps,
  ref: ConnectionRef,
  sealed: string,
  seen: { rewrapped: boolean; rejections: number; counted: boolean },
): Promise<TokenCheckResult> {
  // A reconnect since the rejection stored a new token: that one has not been rejected.
  const current = await store.findHealthConnection(deps.db, ref.accountId, ref.connectionId);
  if (!current || current.disconnected_at || current.access_token_enc !== sealed) return { status: 'skipped', rewrapped: seen.rewrapped };
  const { revertedProjectIds } = await disconnect(deps, ref.accountId, ref.connectionId, { revoke: false });
  return finishDisconnect(deps, ref, current, seen.rejections, seen.counted, revertedProjectIds, seen.rewrapped);
}

/**
 * An attempt of this activity that disconnected the connection but failed before its inbox item was written (the
 * database) leaves a row disconnected within the hour with the rejections at the threshold: the retry finishes the
 * job, naming the projects reverted since the disconnect.
 */
function sweptJustNow(deps: SitePlatformDeps, row: store.HealthConnectionRow): boolean {
  return (
    !!row.disconnected_at &&
    !row.access_token_enc &&
    row.token_rejections >= REJECTIONS_TO_DISCONNECT &&
    nowOf(deps) - row.disconnected_at.getTime() < REJECTION_SPACING_MINUTES * 60_000
  );
}

/** The inbox item of a disconnect (one per connection): the reverted project ids and what to do. */
async function finishDisconnect(
  deps: SitePlatformDeps,
  ref: ConnectionRef,
  row: store.HealthConnectionRow,
  rejections: number,
  counted: boolean,
  /** The ids the disconnect answered; undefined on a retry: read back from the projects reverted since the disconnect. */
  reverted: string[] | undefined,
  rewrapped = false,
): Promise<TokenCheckResult> {
  // A minute of margin on the look-up: disconnected_at is the service's clock, reverted_at the database's.
  const revertedProjectIds =
    reverted ?? (await store.projectsRevertedSince(deps.db, ref.accountId, new Date((row.disconnected_at?.getTime() ?? 0) - 60_000)));
  const { created } = await raiseInboxItem(deps.db, ref.accountId, {
    kind: TOKEN_DISCONNECTED_KIND,
    urgency: 'urgent',
    dedupKey: tokenDisconnectedDedupKey(ref.connectionId),
    title: 'A site platform connection was disconnected: the platform no longer accepts its token',
    body: {
      connection_id: ref.connectionId,
      auth_kind: row.auth_kind,
      workspace_id: row.workspace_id,
      rejections,
      reverted_project_ids: revertedProjectIds,
      hint:
        row.auth_kind === 'oauth'
          ? 'The authorization was revoked or the app uninstalled on the platform. Connect again; the reverted projects return to the platform CMS on connect.'
          : 'The site token was deleted or regenerated on the platform. Paste a new site token; the reverted projects return to the platform CMS on connect.',
    },
  });
  return { status: 'disconnected', rewrapped, rejections, counted, revertedProjectIds, inboxItemCreated: created };
}
