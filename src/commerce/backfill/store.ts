import type { Knex } from '../../db/knex';
import type { ShopRef } from '../../../workflows/commerceShopRef.contract';

/**
 * The connections the backfill visits: connected (a sealed admin token, not disconnected), of every account, after
 * `afterId` in id order (a keyset cursor). The one query here without an account filter: the backfill is a system
 * sweep over all accounts (AccountId `_system`).
 */
export async function listActiveConnections(db: Knex, afterId: string | null, limit: number): Promise<ShopRef[]> {
  const query = db('commerce_connections').whereNull('disconnected_at').whereNotNull('admin_token_enc');
  if (afterId) query.where('id', '>', afterId);
  const rows: Array<{ id: string; account_id: string; shop_domain: string }> = await query
    .orderBy('id')
    .limit(limit)
    .select('id', 'account_id', 'shop_domain');
  return rows.map((r) => ({ accountId: r.account_id, connectionId: r.id, shopDomain: r.shop_domain }));
}

/** The newest platform `updated_at` in the connection's order log (index `connection_id, order_updated_at`). */
export async function newestLoggedUpdate(db: Knex, accountId: string, connectionId: string): Promise<Date | null> {
  const row = await db('commerce_orders_log')
    .where({ account_id: accountId, connection_id: connectionId })
    .max({ newest: 'order_updated_at' })
    .first();
  return (row?.newest as Date | null | undefined) ?? null;
}

export interface LoggedVersion {
  updatedAt: Date | null;
  /** The platform's own `updated_at` text of the logged state (`updatedAt` may be clamped to its receipt). */
  stamp: string | null;
  bridgeError: string | null;
}

/** What the log holds of these orders of the connection: their version and whether their CRM bridge failed. */
export async function loggedVersions(
  db: Knex,
  accountId: string,
  connectionId: string,
  orderIds: string[],
): Promise<Map<string, LoggedVersion>> {
  if (orderIds.length === 0) return new Map();
  const rows: Array<{ order_id: string; order_updated_at: Date | null; stamp: string | null; bridge_error: string | null }> = await db(
    'commerce_orders_log',
  )
    .where({ account_id: accountId, connection_id: connectionId })
    .whereIn('order_id', orderIds)
    .select('order_id', 'order_updated_at', db.raw("raw_payload->>'updated_at' as stamp"), 'bridge_error');
  return new Map(rows.map((r) => [r.order_id, { updatedAt: r.order_updated_at, stamp: r.stamp, bridgeError: r.bridge_error }]));
}
