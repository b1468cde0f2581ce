import type { Knex } from '../../db/knex';
import type { OrderLogRow } from '../ingestion/store';

export interface PrivacyRequestRow {
  id: string;
  account_id: string;
  connection_id: string | null;
  topic: string;
  shop_domain: string;
  customer_id: string | null;
  customer_email: string | null;
  raw_payload: unknown;
  fulfilled_at: Date | null;
  alerted_at: Date | null;
  created_at: Date;
}

/** How a privacy request names its customer; any one of these matching an order makes it the customer's. */
export interface CustomerMatch {
  email: string | null;
  customerId: string | null;
  /** `orders_to_redact` / `orders_requested` of the payload. */
  orderIds: string[];
}

const requests = (db: Knex, accountId: string) => db('commerce_compliance_requests').where({ account_id: accountId });

/** The request, locked until the transaction ends, so two fulfilments of one request never run side by side. */
export async function lockRequest(trx: Knex, accountId: string, id: string): Promise<PrivacyRequestRow | undefined> {
  return requests(trx, accountId).where({ id }).forUpdate().first();
}

export async function findRequest(db: Knex, accountId: string, id: string): Promise<PrivacyRequestRow | undefined> {
  return requests(db, accountId).where({ id }).first();
}

export async function markFulfilled(db: Knex, accountId: string, id: string): Promise<void> {
  await requests(db, accountId).where({ id }).whereNull('fulfilled_at').update({ fulfilled_at: db.fn.now() });
}

const hasMatch = (m: CustomerMatch) => Boolean(m.email || m.customerId || m.orderIds.length);

function customerOrders(db: Knex, accountId: string, connectionId: string, m: CustomerMatch): Knex.QueryBuilder {
  return db('commerce_orders_log')
    .where({ account_id: accountId, connection_id: connectionId })
    .where((q) => {
      if (m.email) q.orWhereRaw('lower(customer_email) = lower(?)', [m.email]);
      if (m.customerId) q.orWhereRaw(`raw_payload -> 'customer' ->> 'id' = ?`, [m.customerId]);
      if (m.orderIds.length) q.orWhereIn('order_id', m.orderIds);
    });
}

/** The customer's logged orders in one shop, oldest first; at most `limit` when given. */
export async function findCustomerOrders(
  db: Knex,
  accountId: string,
  connectionId: string,
  m: CustomerMatch,
  limit?: number,
): Promise<OrderLogRow[]> {
  if (!hasMatch(m)) return [];
  const q = customerOrders(db, accountId, connectionId, m)
    .select('*')
    .orderBy([
      { column: 'order_created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
  return limit === undefined ? q : q.limit(limit);
}

export async function countCustomerOrders(db: Knex, accountId: string, connectionId: string, m: CustomerMatch): Promise<number> {
  if (!hasMatch(m)) return 0;
  const [{ count }] = await customerOrders(db, accountId, connectionId, m).count({ count: '*' });
  return Number(count);
}

/** Replaces an order row's personal data and marks it redacted for good; `unlink` also drops its backlink to the CRM contact. */
export async function scrubOrderRow(db: Knex, accountId: string, id: string, scrubbedPayload: unknown, unlink: boolean): Promise<void> {
  await db('commerce_orders_log')
    .where({ account_id: accountId, id })
    .update({
      customer_email: null,
      raw_payload: JSON.stringify(scrubbedPayload),
      ...(unlink ? { crm_contact_id: null } : {}),
      // A swallowed CRM-bridge error may quote the contact it failed on.
      bridge_error: null,
      redacted_at: db.raw('coalesce(redacted_at, now())'),
      updated_at: db.fn.now(),
    });
}

/**
 * `<=` a request's time read back into a JS Date: Postgres keeps microseconds, a Date milliseconds, so a row written
 * in the request's own transaction (the same `now()`) would compare as later than the rounded-down Date.
 */
const upTo = (before: Date) => new Date(before.getTime() + 1);

/** One page (id order) of a shop's orders logged up to `before`. */
export async function shopOrdersPage(
  db: Knex,
  accountId: string,
  connectionId: string,
  before: Date,
  after: string | null,
  limit: number,
): Promise<Array<Pick<OrderLogRow, 'id' | 'order_id' | 'raw_payload' | 'crm_contact_id'>>> {
  const q = db('commerce_orders_log')
    .where({ account_id: accountId, connection_id: connectionId })
    .where('created_at', '<', upTo(before))
    .select('id', 'order_id', 'raw_payload', 'crm_contact_id')
    .orderBy('id')
    .limit(limit);
  return after ? q.where('id', '>', after) : q;
}

/** The shop's privacy requests logged up to `before`, other than `exceptId` (the shop/redact itself). */
export async function shopPrivacyRequests(
  db: Knex,
  accountId: string,
  connectionId: string,
  exceptId: string,
  before: Date,
): Promise<Array<Pick<PrivacyRequestRow, 'id' | 'raw_payload'>>> {
  return requests(db, accountId)
    .where({ connection_id: connectionId })
    .whereNot({ id: exceptId })
    .where('created_at', '<', upTo(before))
    .select('id', 'raw_payload');
}

/**
 * The shop's privacy requests that name this customer (by platform id or email), plus `requestId` itself: what a
 * customers/redact scrubs of the customer's earlier requests and of its own row.
 */
export async function customerPrivacyRequests(
  db: Knex,
  accountId: string,
  shopDomain: string,
  requestId: string,
  m: CustomerMatch,
): Promise<Array<Pick<PrivacyRequestRow, 'id' | 'topic' | 'raw_payload'>>> {
  return requests(db, accountId)
    .where({ shop_domain: shopDomain })
    .where((q) => {
      q.where({ id: requestId });
      if (m.customerId) q.orWhere({ customer_id: m.customerId });
      if (m.email) q.orWhereRaw('lower(customer_email) = lower(?)', [m.email]);
    })
    .select('id', 'topic', 'raw_payload');
}

/** A privacy request without the customer it names; the order ids and the shop stay as the record of what was asked. */
export async function scrubPrivacyRequest(db: Knex, accountId: string, id: string, scrubbedPayload: unknown): Promise<void> {
  await requests(db, accountId)
    .where({ id })
    .update({ customer_email: null, customer_id: null, raw_payload: JSON.stringify(scrubbedPayload) });
}

/**
 * Drops the body of the shop's deliveries received up to `before` that still hold one (not processed yet): they are
 * marked processed (`ignored`), so the shop's workflow skips them.
 */
export async function dropWaitingDeliveryBodies(db: Knex, accountId: string, connectionId: string, before: Date): Promise<void> {
  await db('commerce_webhook_deliveries')
    .where({ account_id: accountId, connection_id: connectionId })
    .whereNotNull('payload')
    .where('received_at', '<', upTo(before))
    .update({ payload: null, outcome: db.raw(`coalesce(outcome, 'ignored')`), processed_at: db.raw('coalesce(processed_at, now())') });
}

export const ORDER_NOTE_REDACTED = "Order details removed at the customer's request (privacy request).";
