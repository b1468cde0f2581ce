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
    totalCents: Number(row.total),
    count: Number(row.count),
    firstOrderAt: row.first_at ?? null,
    firstOrderId: row.first_id ?? null,
    lastOrderAt: row.last_at ?? null,
  };
}

export async function recordBridgeOutcome(db: Knex, accountId: string, logId: string, error: string | null): Promise<void> {
  await db('commerce_orders_log')
    .where({ account_id: accountId, id: logId })
    .update({ bridge_error: error, bridge_failed_at: error === null ? null : db.fn.now() });
}

export interface OrderToLog {
  order: NormalizedOrder;
  payload: unknown;
  /** The topic that brought this state (`last_topic`). */
  topic: string;
}

/**
 * Upserts the log rows of many orders of one connection in one statement (order ids distinct): order-safe by
 * `order_updated_at`, a redacted row never takes personal data back. Answers the rows written; an order whose
 * stored state is newer is not among them.
 */
export async function upsertOrders(db: Knex, accountId: string, connectionId: string, orders: OrderToLog[]): Promise<OrderLogRow[]> {
  if (orders.length === 0) return [];
  const records = orders.map(({ order, payload, topic }) => ({
    order_id: order.orderId,
    order_number: order.orderNumber,
    total_amount_cents: order.totalCents,
    currency: order.currency,
    customer_email: order.email,
    raw_payload: payload ?? null,
    order_created_at: order.createdAt,
    order_updated_at: order.updatedAt,
    last_topic: topic,
  }));
  const result = await db.raw(
    `insert into commerce_orders_log as log (account_id, connection_id, order_id, order_number, total_amount_cents, currency,
       customer_email, raw_payload, order_created_at, order_updated_at, last_topic)
     select ?::uuid, ?::uuid, o.order_id, o.order_number, o.total_amount_cents, o.currency, o.customer_email, o.raw_payload,
       o.order_created_at, o.order_updated_at, o.last_topic
     from jsonb_to_recordset(?::jsonb) as o(order_id text, order_number text, total_amount_cents bigint, currency text,
       customer_email text, raw_payload jsonb, order_created_at timestamptz, order_updated_at timestamptz, last_topic text)
     on conflict (connection_id, order_id) do update set
       order_number = excluded.order_number, total_amount_cents = excluded.total_amount_cents, currency = excluded.currency,
       -- A redacted order keeps its scrubbed email and payload: a late delivery must not write personal data back.
       customer_email = case when log.redacted_at is null then excluded.customer_email end,
       raw_payload = case when log.redacted_at is null then excluded.raw_payload else log.raw_payload end,
       -- Dates arrive clamped to their receipt: an order seen again under the same platform stamp is the same
       -- version, and keeps the earliest time it was clamped to (a later receipt would clamp it later).
       order_created_at = least(excluded.order_created_at, log.order_created_at),
       order_updated_at = case when log.raw_payload->>'updated_at' = excluded.raw_payload->>'updated_at'
         then least(excluded.order_updated_at, log.order_updated_at) else excluded.order_updated_at end,
       last_topic = excluded.last_topic, updated_at = now()
     where log.account_id = excluded.account_id
       and (log.order_updated_at is null or excluded.order_updated_at >= log.order_updated_at)
     returning *`,
    [accountId, connectionId, JSON.stringify(records)],
  );
  return result.rows;
}

export async function findOrders(db: Knex, accountId: string, connectionId: string, orderIds: string[]): Promise<OrderLogRow[]> {
  if (orderIds.length === 0) return [];
  return db('commerce_orders_log').where({ account_id: accountId, connection_id: connectionId }).whereIn('order_id', orderIds);
}

/** `setBacklink` for many rows in one statement: each row points at its contact (null: a guest order) with its first-order flag. */
export async function setBacklinks(
  db: Knex,
  accountId: string,
  links: Array<{ id: string; contactId: string | null; firstOrder: boolean | null }>,
): Promise<void> {
  if (links.length === 0) return;
  await db.raw(
    `update commerce_orders_log log set crm_contact_id = l.contact_id, first_order = l.first_order
     from jsonb_to_recordset(?::jsonb) as l(id uuid, contact_id uuid, first_order boolean)
     where log.account_id = ? and log.id = l.id`,
    [JSON.stringify(links.map((l) => ({ id: l.id, contact_id: l.contactId, first_order: l.firstOrder }))), accountId],
  );
}

/** `rollupOfContact` for many contacts in one statement; a contact without orders gets the zero rollup. */
export async function rollupsOfContacts(db: Knex, accountId: string, contactIds: string[]): Promise<Map<string, OrderRollup>> {
  if (contactIds.length === 0) return new Map();
  const placed = 'coalesce(log.order_created_at, log.created_at)';
  const result = await db.raw(
    `select ids.id as contact_id, coalesce(sum(log.total_amount_cents), 0)::bigint as total, count(log.id)::int as count,
       min(${placed}) as first_at, (array_agg(log.order_id order by ${placed} asc, log.order_id asc) filter (where log.id is not null))[1] as first_id,
       max(${placed}) as last_at
     from unnest(?::uuid[]) as ids(id)
     left join commerce_orders_log log on log.account_id = ? and log.crm_contact_id = ids.id
     group by ids.id`,
    [contactIds, accountId],
  );
  type RollupRow = {
    contact_id: string;
    total: string;
    count: number;
    first_at: Date | null;
    first_id: string | null;
    last_at: Date | null;
  };
  return new Map(
    (result.rows as RollupRow[]).map((r) => [
      r.contact_id,
      {
        totalCents: Number(r.total),
        count: Number(r.count),
        firstOrderAt: r.first_at ?? null,
        firstOrderId: r.first_id ?? null,
        lastOrderAt: r.last_at ?? null,
      },
    ]),
  );
}

/** Clears the recorded bridge failure of rows whose bridge has now gone through. */
export async function clearBridgeErrors(db: Knex, accountId: string, logIds: string[]): Promise<void> {
  if (logIds.length === 0) return;
  await db('commerce_orders_log')
    .where({ account_id: accountId })
    .whereIn('id', logIds)
    .update({ bridge_error: null, bridge_failed_at: null });
}
