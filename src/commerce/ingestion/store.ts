import type { Knex } from '../../db/knex';
import type { NormalizedOrder } from './orderPayload';

export interface OrderLogRow {
  id: string;
  account_id: string;
  connection_id: string;
  order_id: string;
  order_number: string | null;
  total_amount_cents: number;
  currency: string | null;
  customer_email: string | null;
  raw_payload: unknown;
  crm_contact_id: string | null;
  order_created_at: Date | null;
  order_updated_at: Date | null;
  last_topic: string | null;
  first_order: boolean | null;
  bridge_error: string | null;
  bridge_failed_at: Date | null;
  /** Set by a privacy redaction; the row never takes personal data again. */
  redacted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface OrderRollup {
  totalCents: number;
  count: number;
  firstOrderAt: Date | null;
  firstOrderId: string | null;
  lastOrderAt: Date | null;
}

/**
 * Serialises order ingestion per account until the transaction ends. Rollups are recomputed from rows of other
 * orders and an order may move between contacts, so one account-wide lock (rather than per-order or per-contact
 * locks taken in varying order) keeps every recompute exact and can never deadlock.
 */
export async function lockAccountOrders(trx: Knex, accountId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`commerce-orders:${accountId}`]);
}

export async function findOrder(db: Knex, accountId: string, connectionId: string, orderId: string): Promise<OrderLogRow | undefined> {
  return db('commerce_orders_log').where({ account_id: accountId, connection_id: connectionId, order_id: orderId }).first();
}

/**
 * Upserts the log row by (connection, order_id), order-safe: an existing row is overwritten only by a state whose
 * platform `updated_at` is not older than the stored one (equal is a replay of the same state). Answers the written
 * row, or undefined when the stored state is newer and nothing was written.
 */
export async function upsertOrder(
  db: Knex, accountId: string, connectionId: string, order: NormalizedOrder, payload: unknown, topic: string,
): Promise<OrderLogRow | undefined> {
  const result = await db.raw(
    `insert into commerce_orders_log as log (account_id, connection_id, order_id, order_number, total_amount_cents, currency,
       customer_email, raw_payload, order_created_at, order_updated_at, last_topic)
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)
     on conflict (connection_id, order_id) do update set
       order_number = excluded.order_number, total_amount_cents = excluded.total_amount_cents, currency = excluded.currency,
       -- A redacted order keeps its scrubbed email and payload: a late delivery must not write personal data back.
       customer_email = case when log.redacted_at is null then excluded.customer_email end,
       raw_payload = case when log.redacted_at is null then excluded.raw_payload else log.raw_payload end,
       order_created_at = coalesce(excluded.order_created_at, log.order_created_at),
       order_updated_at = excluded.order_updated_at, last_topic = excluded.last_topic, updated_at = now()
     where log.account_id = excluded.account_id
       and (log.order_updated_at is null or excluded.order_updated_at >= log.order_updated_at)
     returning *`,
    [accountId, connectionId, order.orderId, order.orderNumber, order.totalCents, order.currency, order.email,
      JSON.stringify(payload), order.createdAt, order.updatedAt, topic],
  );
  return result.rows[0];
}

/** Points the order at its contact (or at none, for a guest order); `firstOrder` is set only when given. */
export async function setBacklink(db: Knex, accountId: string, logId: string, contactId: string | null, firstOrder?: boolean | null): Promise<void> {
  const changes: Record<string, unknown> = { crm_contact_id: contactId };
  if (firstOrder !== undefined) changes.first_order = firstOrder;
  await db('commerce_orders_log').where({ account_id: accountId, id: logId }).update(changes);
}

/** A contact's rollups, recomputed from every logged order that points at it. */
export async function rollupOfContact(db: Knex, accountId: string, contactId: string): Promise<OrderRollup> {
  const placed = 'coalesce(order_created_at, created_at)';
  const row = await db('commerce_orders_log')
    .where({ account_id: accountId, crm_contact_id: contactId })
    .first(
      db.raw('coalesce(sum(total_amount_cents), 0)::bigint as total'),
      db.raw('count(*)::int as count'),
      db.raw(`min(${placed}) as first_at`),
      db.raw(`(array_agg(order_id order by ${placed} asc, order_id asc))[1] as first_id`),
      db.raw(`max(${placed}) as last_at`),
    );
  return {
    totalCents: Number(row.total), count: Number(row.count), firstOrderAt: row.first_at ?? null, firstOrderId: row.first_id ?? null, lastOrderAt: row.last_at ?? null,
  };
}

export async function recordBridgeOutcome(db: Knex, accountId: string, logId: string, error: string | null): Promise<void> {
  await db('commerce_orders_log').where({ account_id: accountId, id: logId })
    .update({ bridge_error: error, bridge_failed_at: error === null ? null : db.fn.now() });
}
