import type { Knex } from '../../db/knex';

/** doc2 Webhook subscription: one row per registration the service created or adopted on a site. */
export interface SubscriptionRow {
  id: string;
  account_id: string;
  connection_id: string;
  site_id: string;
  webhook_id: string;
  trigger_type: string;
  endpoint_url: string;
  filter: { name: string } | null;
  last_received_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type FormRoutingMode = 'site_wide' | 'per_form';

export interface FormRoutingRow {
  account_id: string;
  site_id: string;
  mode: FormRoutingMode;
  form_names: string[];
  created_at: Date;
  updated_at: Date;
}

const subscriptions = (db: Knex, accountId: string) => db('site_platform_webhook_subscriptions').where({ account_id: accountId });

/**
 * Serialises webhook registration (and `webhook_delete`) on one platform site: a transaction-scoped advisory lock,
 * held until the caller's transaction ends. Waits at most `waitMs` (then Postgres raises lock_not_available).
 */
export async function lockSiteWebhooks(trx: Knex, siteId: string, waitMs: number): Promise<void> {
  await trx.raw(`select set_config('lock_timeout', ?, true)`, [`${Math.max(1, Math.floor(waitMs))}ms`]);
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`site_platform_webhooks:${siteId}`]);
}

/** Records a registration the service created or adopted (a webhook id is unique: a second write refreshes it). */
export async function upsertSubscription(
  db: Knex,
  accountId: string,
  row: Pick<SubscriptionRow, 'connection_id' | 'site_id' | 'webhook_id' | 'trigger_type' | 'endpoint_url' | 'filter'>,
): Promise<void> {
  const fields = { ...row, filter: row.filter ? JSON.stringify(row.filter) : null };
  await db('site_platform_webhook_subscriptions')
    .insert({ account_id: accountId, ...fields })
    .onConflict('webhook_id')
    .merge({ ...fields, updated_at: db.fn.now() })
    // A webhook id is the platform's, unique across accounts: never take over another account's row.
    .where('site_platform_webhook_subscriptions.account_id', accountId);
}

/** Removes the row of a registration the platform confirmed deleted (or answered it does not have). */
export async function deleteSubscription(db: Knex, accountId: string, webhookId: string): Promise<number> {
  return subscriptions(db, accountId).where({ webhook_id: webhookId }).delete();
}

export async function findSubscription(db: Knex, accountId: string, webhookId: string): Promise<SubscriptionRow | undefined> {
  return subscriptions(db, accountId).where({ webhook_id: webhookId }).first();
}

export async function listSubscriptions(
  db: Knex,
  accountId: string,
  filter: { connectionId?: string; siteId?: string } = {},
): Promise<SubscriptionRow[]> {
  const q = subscriptions(db, accountId).select('*');
  if (filter.connectionId) q.where({ connection_id: filter.connectionId });
  if (filter.siteId) q.where({ site_id: filter.siteId });
  return q.orderBy([
    { column: 'site_id', order: 'asc' },
    { column: 'trigger_type', order: 'asc' },
    { column: 'created_at', order: 'asc' },
  ]);
}

export async function findFormRouting(db: Knex, accountId: string, siteId: string): Promise<FormRoutingRow | undefined> {
  return db('site_platform_form_routing').where({ account_id: accountId, site_id: siteId }).first();
}

export async function saveFormRouting(
  db: Knex,
  accountId: string,
  siteId: string,
  fields: { mode: FormRoutingMode; form_names: string[] },
): Promise<FormRoutingRow> {
  const values = { mode: fields.mode, form_names: JSON.stringify(fields.form_names) };
  const [row] = await db('site_platform_form_routing')
    .insert({ account_id: accountId, site_id: siteId, ...values })
    .onConflict(['account_id', 'site_id'])
    .merge({ ...values, updated_at: db.fn.now() })
    .returning('*');
  return row;
}
