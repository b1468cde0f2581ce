import type { Knex } from '../../db/knex';

/**
 * SQL of the reliability sweeps. Sweeps are system jobs that walk every account's connections, so the page
 * readers here are deliberately cross-account; each row they return carries its `account_id`, and every write
 * that follows (inbox items, alert stamps) filters on that account again.
 */

export interface PageRequest {
  /** Keyset cursor: the last id of the previous page (ids ascending); absent for the first page. */
  after?: string | null;
  limit: number;
}

const afterId = (q: Knex.QueryBuilder, column: string, after?: string | null) => (after ? q.where(column, '>', after) : q);

export interface HealthRow {
  id: string;
  account_id: string;
  shop_domain: string;
  installed_at: Date;
  active_subscriptions: number;
  last_received_at: Date | null;
  silent: boolean;
}

/**
 * Connected shops installed at least `hours` ago (a connection without `installed_at` counts from its creation),
 * with their active subscriptions' newest delivery and whether the shop is silent: no active subscription, or
 * none that received anything in the last `hours`.
 */
export async function webhookHealthPage(db: Knex, page: PageRequest, hours: number): Promise<HealthRow[]> {
  const threshold = db.raw('now() - make_interval(hours => ?)', [hours]);
  const q = db('commerce_connections as c')
    .joinRaw(
      `left join lateral (
        select count(*)::int as active_subscriptions, max(s.last_received_at) as last_received_at
        from commerce_webhook_subscriptions s
        where s.connection_id = c.id and s.account_id = c.account_id and s.is_active
      ) subs on true`,
    )
    .whereNull('c.disconnected_at')
    .where(db.raw('coalesce(c.installed_at, c.created_at)'), '<=', threshold)
    .select(
      'c.id',
      'c.account_id',
      'c.shop_domain',
      db.raw('coalesce(c.installed_at, c.created_at) as installed_at'),
      'subs.active_subscriptions',
      'subs.last_received_at',
      db.raw(
        '(subs.active_subscriptions = 0 or subs.last_received_at is null or subs.last_received_at <= now() - make_interval(hours => ?)) as silent',
        [hours],
      ),
    )
    .orderBy('c.id')
    .limit(page.limit);
  return afterId(q, 'c.id', page.after);
}

export interface ScopeRow {
  id: string;
  account_id: string;
  shop_domain: string;
  scope: string | null;
}

/** Connected shops with their granted scope. */
export async function activeConnectionScopesPage(db: Knex, page: PageRequest): Promise<ScopeRow[]> {
  const q = db('commerce_connections')
    .whereNull('disconnected_at')
    .select('id', 'account_id', 'shop_domain', 'scope')
    .orderBy('id')
    .limit(page.limit);
  return afterId(q, 'id', page.after);
}

export interface UrlDriftRow {
  id: string;
  account_id: string;
  shop_domain: string;
  stale_subscriptions: number;
}

/** Connected shops with at least one webhook subscription recorded at another URL than `endpointUrl`. */
export async function webhookUrlDriftPage(db: Knex, endpointUrl: string, page: PageRequest): Promise<UrlDriftRow[]> {
  const q = db('commerce_connections as c')
    .join('commerce_webhook_subscriptions as s', function joinSubs() {
      this.on('s.connection_id', '=', 'c.id').andOn('s.account_id', '=', 'c.account_id');
    })
    .whereNull('c.disconnected_at')
    .whereNot('s.endpoint_url', endpointUrl)
    .groupBy('c.id', 'c.account_id', 'c.shop_domain')
    .select('c.id', 'c.account_id', 'c.shop_domain', db.raw('count(*)::int as stale_subscriptions'))
    .orderBy('c.id')
    .limit(page.limit);
  return afterId(q, 'c.id', page.after);
}

export interface PendingRequestRow {
  id: string;
  account_id: string;
  connection_id: string | null;
  topic: string;
  created_at: Date;
}

/** Privacy requests of these topics not fulfilled yet. */
export async function unfulfilledRequestsPage(db: Knex, page: PageRequest, topics: string[]): Promise<PendingRequestRow[]> {
  const q = db('commerce_compliance_requests')
    .whereNull('fulfilled_at')
    .whereIn('topic', topics)
    .select('id', 'account_id', 'connection_id', 'topic', 'created_at')
    .orderBy('id')
    .limit(page.limit);
  return afterId(q, 'id', page.after);
}

export interface OverdueRequestRow extends PendingRequestRow {
  shop_domain: string;
  customer_id: string | null;
}

/**
 * Locks up to `limit` unfulfilled requests older than `days` that were never alerted (skipping rows another sweep
 * holds), oldest first. Run it in the transaction that raises their alerts and stamps `alerted_at`.
 */
export async function claimOverdueRequests(trx: Knex, days: number, limit: number): Promise<OverdueRequestRow[]> {
  return trx('commerce_compliance_requests')
    .whereNull('fulfilled_at')
    .whereNull('alerted_at')
    .where('created_at', '<=', trx.raw('now() - make_interval(days => ?)', [days]))
    .select('id', 'account_id', 'connection_id', 'topic', 'created_at', 'shop_domain', 'customer_id')
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked();
}

export async function markAlerted(trx: Knex, accountId: string, id: string): Promise<void> {
  await trx('commerce_compliance_requests').where({ account_id: accountId, id }).update({ alerted_at: trx.fn.now() });
}

/** Deletes up to `limit` delivery records received more than `hours` ago, oldest first; answers how many. */
export async function purgeDeliveriesOlderThan(db: Knex, hours: number, limit: number): Promise<number> {
  const result = await db.raw(
    `with doomed as (
       select connection_id, webhook_id from commerce_webhook_deliveries
       -- Only what was handed off and processed: a row still waiting for Temporal is an undelivered delivery.
       where received_at < now() - make_interval(hours => ?) and processed_at is not null
       order by received_at limit ?
     )
     delete from commerce_webhook_deliveries d using doomed
     where d.connection_id = doomed.connection_id and d.webhook_id = doomed.webhook_id`,
    [hours, limit],
  );
  return result.rowCount ?? 0;
}
