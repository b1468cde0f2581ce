import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';

export type ConnectionPurpose = 'account_default' | 'project_override';

export interface ConnectionRow {
  id: string;
  account_id: string;
  shop_domain: string;
  shop_id: string | null;
  shop_name: string | null;
  admin_token_enc: string | null;
  storefront_token_enc: string | null;
  webhook_secret_enc: string | null;
  scope: string | null;
  purpose: ConnectionPurpose;
  installed_at: Date | null;
  disconnected_at: Date | null;
  last_synced_at: Date | null;
  revalidation_token: string | null;
  customer_account_client_id: string | null;
  customer_account_url: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface SubscriptionRow {
  id: string;
  account_id: string;
  connection_id: string;
  topic: string;
  endpoint_url: string;
  api_version: string;
  platform_subscription_id: string | null;
  last_received_at: Date | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

const connections = (db: Knex, accountId: string) => db('commerce_connections').where({ account_id: accountId });

export async function listConnections(db: Knex, accountId: string, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    connections(db, accountId)
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<ConnectionRow[]>,
    connections(db, accountId).count({ count: '*' }) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}

export async function findConnection(db: Knex, accountId: string, id: string): Promise<ConnectionRow | undefined> {
  return connections(db, accountId).where({ id }).first();
}

/** The account's default connection while it is connected. */
export async function findActiveDefault(db: Knex, accountId: string): Promise<ConnectionRow | undefined> {
  return connections(db, accountId).where({ purpose: 'account_default' }).whereNull('disconnected_at').first();
}

/** Every connection of the account (the caller holds the account's lock, see `lockAccount`). */
export async function accountConnections(trx: Knex, accountId: string): Promise<ConnectionRow[]> {
  return connections(trx, accountId).select('*');
}

export type InstallFields = Pick<ConnectionRow, 'shop_domain' | 'shop_id' | 'shop_name' | 'admin_token_enc' | 'scope' | 'purpose'>;

/** Inserts the shop's connection or refreshes it on reconnect; undefined when another account holds the domain. */
export async function upsertInstalledConnection(trx: Knex, accountId: string, fields: InstallFields): Promise<ConnectionRow | undefined> {
  const now = trx.fn.now();
  const [row] = await trx('commerce_connections')
    .insert({ account_id: accountId, ...fields, installed_at: now, disconnected_at: null })
    .onConflict('shop_domain')
    .merge({ ...fields, installed_at: now, disconnected_at: null, updated_at: now })
    .where('commerce_connections.account_id', accountId)
    .returning('*');
  return row;
}

/** Every other connection of the account stops being the default. */
export async function demoteOtherDefaults(trx: Knex, accountId: string, keepId: string): Promise<void> {
  await connections(trx, accountId)
    .where({ purpose: 'account_default' })
    .whereNot({ id: keepId })
    .update({ purpose: 'project_override', updated_at: trx.fn.now() });
}

export async function updateConnection(
  db: Knex,
  accountId: string,
  id: string,
  fields: Partial<ConnectionRow>,
): Promise<ConnectionRow | undefined> {
  const [row] = await connections(db, accountId)
    .where({ id })
    .update({ ...fields, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** Replaces a sealed column only if it still holds what was read, so a concurrent reconnect's token is never overwritten. */
export async function rewrapSealed(
  db: Knex,
  accountId: string,
  id: string,
  column: 'admin_token_enc' | 'storefront_token_enc' | 'webhook_secret_enc',
  from: string,
  to: string,
): Promise<void> {
  await connections(db, accountId)
    .where({ id, [column]: from })
    .update({ [column]: to, updated_at: db.fn.now() });
}

export async function listSubscriptions(db: Knex, accountId: string, connectionId: string): Promise<SubscriptionRow[]> {
  return db('commerce_webhook_subscriptions').where({ account_id: accountId, connection_id: connectionId }).orderBy('topic');
}

export async function saveSubscription(
  db: Knex,
  accountId: string,
  connectionId: string,
  fields: Pick<SubscriptionRow, 'topic' | 'endpoint_url' | 'api_version' | 'platform_subscription_id'>,
): Promise<void> {
  await db('commerce_webhook_subscriptions')
    .insert({ account_id: accountId, connection_id: connectionId, ...fields, is_active: true })
    .onConflict(['connection_id', 'topic'])
    .merge({
      endpoint_url: fields.endpoint_url,
      api_version: fields.api_version,
      platform_subscription_id: fields.platform_subscription_id,
      is_active: true,
      updated_at: db.fn.now(),
    });
}

export async function deactivateSubscriptions(db: Knex, accountId: string, connectionId: string): Promise<void> {
  await db('commerce_webhook_subscriptions')
    .where({ account_id: accountId, connection_id: connectionId })
    .update({ is_active: false, updated_at: db.fn.now() });
}
