import type { Knex } from '../../db/knex';
import type { ConnectionRef } from '../../../workflows/sitePlatformSweeps.contract';
import type { AuthKind, ConnectionRow } from '../connections/store';

/**
 * SQL of the site platform sweeps. Sweeps are system jobs that walk every account's connections, so the page readers
 * here are deliberately cross-account; each row they return carries its `account_id`, and every read or write that
 * follows for one connection filters on that account again.
 */

export interface PageRequest {
  /** Keyset cursor: the last connection id of the previous page (ids ascending); absent for the first page. */
  after?: string | null;
  limit: number;
  /** Only this account's connections (a run scoped to one account); every account's when absent. */
  accountId?: string;
}

const afterId = (q: Knex.QueryBuilder, column: string, after?: string | null) => (after ? q.where(column, '>', after) : q);

/** Live connections (not disconnected, a token stored), in id order. */
export async function liveConnectionsPage(db: Knex, page: PageRequest): Promise<ConnectionRef[]> {
  const q = db('site_platform_connections')
    .whereNull('disconnected_at')
    .whereNotNull('access_token_enc')
    .select('id', 'account_id', 'auth_kind')
    .orderBy('id')
    .limit(page.limit);
  if (page.accountId) q.where({ account_id: page.accountId });
  const rows: Array<{ id: string; account_id: string; auth_kind: AuthKind }> = await afterId(q, 'id', page.after);
  return rows.map((r) => ({ accountId: r.account_id, connectionId: r.id, authKind: r.auth_kind }));
}

// Token health

export interface HealthConnectionRow extends ConnectionRow {
  token_rejections: number;
  token_checked_at: Date | null;
}

export async function findHealthConnection(db: Knex, accountId: string, id: string): Promise<HealthConnectionRow | undefined> {
  return db('site_platform_connections').where({ account_id: accountId, id }).first();
}

/**
 * A successful introspection: the rejection count starts over, the grant's scope and rate limit are refreshed. Only
 * while the row still holds the token that was introspected (a reconnect in between keeps its own answer).
 */
export async function recordTokenAccepted(
  db: Knex,
  accountId: string,
  id: string,
  sealed: string,
  fields: { scope: string; rate_limit_per_minute: number | null },
): Promise<boolean> {
  const n = await db('site_platform_connections')
    .where({ account_id: accountId, id, access_token_enc: sealed })
    .whereNull('disconnected_at')
    .update({
      ...fields,
      token_rejections: 0,
      token_checked_at: db.fn.now(),
      last_introspected_at: db.fn.now(),
      updated_at: db.fn.now(),
    });
  return n > 0;
}

/**
 * A rejection by the platform. It counts (and stamps `token_checked_at`) when it is the first of a series or comes at
 * least `spacingMinutes` after the last counted one, so a run-now right after a scheduled run (or an activity retry)
 * is not a second vote. Only while the row still holds the token that was rejected. Answers the count after it.
 */
export async function recordTokenRejected(
  db: Knex,
  accountId: string,
  id: string,
  sealed: string,
  spacingMinutes: number,
): Promise<{ counted: boolean; rejections: number } | undefined> {
  const [row] = await db('site_platform_connections')
    .where({ account_id: accountId, id, access_token_enc: sealed })
    .whereNull('disconnected_at')
    .where((w) =>
      w
        .where('token_rejections', 0)
        .orWhereNull('token_checked_at')
        .orWhere('token_checked_at', '<=', db.raw('now() - make_interval(mins => ?)', [spacingMinutes])),
    )
    .update({ token_rejections: db.raw('token_rejections + 1'), token_checked_at: db.fn.now(), updated_at: db.fn.now() })
    .returning('token_rejections');
  if (row) return { counted: true, rejections: row.token_rejections };
  const current = await db('site_platform_connections')
    .where({ account_id: accountId, id, access_token_enc: sealed })
    .whereNull('disconnected_at')
    .first('token_rejections');
  return current ? { counted: false, rejections: current.token_rejections } : undefined;
}

/** The account's projects switched back to the native CMS at or after `since` (a disconnect's fallback). */
export async function projectsRevertedSince(db: Knex, accountId: string, since: Date): Promise<string[]> {
  const rows: Array<{ project_id: string }> = await db('site_platform_content_sources')
    .where({ account_id: accountId })
    .where('reverted_at', '>=', since)
    .orderBy('project_id')
    .select('project_id');
  return rows.map((r) => r.project_id);
}

// Webhook health

/**
 * The newest delivery the connection is known to have received: a verified inbound event in the log (kept for the
 * retention period) or a subscription's `last_received_at`, whichever is later; null when neither exists.
 */
export async function lastDeliveryOf(db: Knex, accountId: string, connectionId: string): Promise<Date | null> {
  const event = await db('site_platform_inbound_events')
    .where({ account_id: accountId, connection_id: connectionId })
    .whereRaw('verified')
    .orderBy('received_at', 'desc')
    .first('received_at');
  const sub = await db('site_platform_webhook_subscriptions')
    .where({ account_id: accountId, connection_id: connectionId })
    .max({ last: 'last_received_at' })
    .first();
  const dates = [event?.received_at as Date | undefined, (sub?.last ?? undefined) as Date | undefined].filter((d): d is Date => !!d);
  return dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null;
}

// URL reconcile

export interface SubscriptionUrlsRow {
  accountId: string;
  connectionId: string;
  endpointUrls: string[];
}

/** Live OAuth connections that have subscription rows, with the distinct endpoint URLs those rows record. */
export async function subscriptionUrlsPage(db: Knex, page: PageRequest): Promise<SubscriptionUrlsRow[]> {
  const q = db('site_platform_connections as c')
    .join('site_platform_webhook_subscriptions as s', (j) => j.on('s.connection_id', 'c.id').andOn('s.account_id', 'c.account_id'))
    .whereNull('c.disconnected_at')
    .whereNotNull('c.access_token_enc')
    .where('c.auth_kind', 'oauth')
    .groupBy('c.id', 'c.account_id')
    .select('c.id', 'c.account_id', db.raw('array_agg(distinct s.endpoint_url) as endpoint_urls'))
    .orderBy('c.id')
    .limit(page.limit);
  if (page.accountId) q.where('c.account_id', page.accountId);
  const rows: Array<{ id: string; account_id: string; endpoint_urls: string[] }> = await afterId(q, 'c.id', page.after);
  return rows.map((r) => ({ accountId: r.account_id, connectionId: r.id, endpointUrls: r.endpoint_urls }));
}

// Event retention

/**
 * Deletes up to `limit` inbound events received before `olderThanHours` ago, oldest first: unverified rows, or
 * verified rows already handed to Temporal (a verified row the relay has not dispatched yet is work, never deleted).
 * Answers how many went.
 */
export async function deleteExpiredEvents(
  db: Knex,
  kind: 'unverified' | 'verified',
  olderThanHours: number,
  limit: number,
): Promise<number> {
  const candidates = db('site_platform_inbound_events')
    .where('received_at', '<', db.raw('now() - make_interval(hours => ?)', [olderThanHours]))
    .select('seq')
    .orderBy('received_at')
    .limit(limit);
  if (kind === 'unverified') candidates.where({ verified: false });
  else candidates.where({ verified: true }).whereNotNull('dispatched_at');
  return db('site_platform_inbound_events').whereIn('seq', candidates).delete();
}
