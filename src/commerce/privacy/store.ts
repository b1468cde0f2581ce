import type { ContactRow } from '../../crm/service';
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
  return db('commerce_orders_log').where({ account_id: accountId, connection_id: connectionId }).where((q) => {
    if (m.email) q.orWhereRaw('lower(customer_email) = lower(?)', [m.email]);
    if (m.customerId) q.orWhereRaw(`raw_payload -> 'customer' ->> 'id' = ?`, [m.customerId]);
    if (m.orderIds.length) q.orWhereIn('order_id', m.orderIds);
  });
}

/** The customer's logged orders in one shop, oldest first; at most `limit` when given. */
export async function findCustomerOrders(db: Knex, accountId: string, connectionId: string, m: CustomerMatch, limit?: number): Promise<OrderLogRow[]> {
  if (!hasMatch(m)) return [];
  const q = customerOrders(db, accountId, connectionId, m).select('*').orderBy([{ column: 'order_created_at', order: 'asc' }, { column: 'id', order: 'asc' }]);
  return limit === undefined ? q : q.limit(limit);
}

export async function countCustomerOrders(db: Knex, accountId: string, connectionId: string, m: CustomerMatch): Promise<number> {
  if (!hasMatch(m)) return 0;
  const [{ count }] = await customerOrders(db, accountId, connectionId, m).count({ count: '*' });
  return Number(count);
}

/** Replaces an order row's personal data and marks it redacted for good; `unlink` also drops its backlink to the CRM contact. */
export async function scrubOrderRow(db: Knex, accountId: string, id: string, scrubbedPayload: unknown, unlink: boolean): Promise<void> {
  await db('commerce_orders_log').where({ account_id: accountId, id }).update({
    customer_email: null,
    raw_payload: JSON.stringify(scrubbedPayload),
    ...(unlink ? { crm_contact_id: null } : {}),
    // A swallowed CRM-bridge error may quote the contact it failed on.
    bridge_error: null,
    redacted_at: db.raw('coalesce(redacted_at, now())'),
    updated_at: db.fn.now(),
  });
}

/** One page (id order) of a shop's orders logged before `before`. */
export async function shopOrdersPage(
  db: Knex, accountId: string, connectionId: string, before: Date, after: string | null, limit: number,
): Promise<Array<Pick<OrderLogRow, 'id' | 'order_id' | 'raw_payload' | 'crm_contact_id'>>> {
  const q = db('commerce_orders_log').where({ account_id: accountId, connection_id: connectionId }).where('created_at', '<=', before)
    .select('id', 'order_id', 'raw_payload', 'crm_contact_id').orderBy('id').limit(limit);
  return after ? q.where('id', '>', after) : q;
}

/** The shop's privacy requests logged up to `before`, other than `exceptId` (the shop/redact itself). */
export async function shopPrivacyRequests(db: Knex, accountId: string, connectionId: string, exceptId: string, before: Date): Promise<Array<Pick<PrivacyRequestRow, 'id' | 'raw_payload'>>> {
  return requests(db, accountId).where({ connection_id: connectionId }).whereNot({ id: exceptId }).where('created_at', '<=', before)
    .select('id', 'raw_payload');
}

/** A privacy request without the customer it names; the order ids and the shop stay as the record of what was asked. */
export async function scrubPrivacyRequest(db: Knex, accountId: string, id: string, scrubbedPayload: unknown): Promise<void> {
  await requests(db, accountId).where({ id }).update({ customer_email: null, customer_id: null, raw_payload: JSON.stringify(scrubbedPayload) });
}

/** Empties the data packages (inbox items of `kind`) of these privacy requests, keeping which request each was for. */
export async function emptyDataPackages(db: Knex, accountId: string, kind: string, requestIds: string[]): Promise<void> {
  if (requestIds.length === 0) return;
  await db.raw(
    `update inbox_items set body = jsonb_build_object('compliance_request_id', body->'compliance_request_id', 'shop_domain', body->'shop_domain',
       'redacted', true, 'hint', 'The shop was redacted (shop/redact): the packaged customer data was removed.')
     where account_id = ? and kind = ? and body->>'compliance_request_id' = any(?::text[])`,
    [accountId, kind, requestIds],
  );
}

/** The shop's order triggers (all, or those of `orderIds`) in the workflow outbox without the customer email they carried. */
export async function scrubOrderTriggers(db: Knex, accountId: string, connectionId: string, orderIds?: string[]): Promise<void> {
  if (orderIds?.length === 0) return;
  await db.raw(
    `update workflow_trigger_outbox set payload = payload || '{"customer_email": null}'::jsonb
     where account_id = ? and payload->>'connection_id' = ? and payload->>'customer_email' is not null
       and (?::text[] is null or payload->>'order_id' = any(?::text[]))`,
    [accountId, connectionId, orderIds ?? null, orderIds ?? null],
  );
}

/**
 * What the shop's triggers and inbox items say about a person: `customer_email` and `customer_id` of its triggers
 * and `customer_id` of its inbox items are nulled, and the CRM-bridge error of its items (it may quote a contact)
 * removed. What the event was — contract, order, amounts, codes — stays.
 */
export async function scrubShopTriggersAndInbox(db: Knex, accountId: string, connectionId: string): Promise<void> {
  await db.raw(
    `update workflow_trigger_outbox set payload = payload
       || case when jsonb_exists(payload, 'customer_email') then '{"customer_email": null}'::jsonb else '{}'::jsonb end
       || case when jsonb_exists(payload, 'customer_id') then '{"customer_id": null}'::jsonb else '{}'::jsonb end
     where account_id = ? and payload->>'connection_id' = ?
       and (payload->>'customer_email' is not null or payload->>'customer_id' is not null)`,
    [accountId, connectionId],
  );
  await db.raw(
    `update inbox_items set body = body
       || case when jsonb_exists(body, 'customer_id') then '{"customer_id": null}'::jsonb else '{}'::jsonb end
       || case when jsonb_exists(body, 'error') and kind = 'commerce_order_bridge_failed' then '{"error": null}'::jsonb else '{}'::jsonb end
     where account_id = ? and body->>'connection_id' = ?
       and (body->>'customer_id' is not null or (kind = 'commerce_order_bridge_failed' and body->>'error' is not null))`,
    [accountId, connectionId],
  );
}

/**
 * Drops the body of the shop's deliveries received up to `before` that still hold one (not processed yet): they are
 * marked processed (`ignored`), so the shop's workflow skips them.
 */
export async function dropWaitingDeliveryBodies(db: Knex, accountId: string, connectionId: string, before: Date): Promise<void> {
  await db('commerce_webhook_deliveries').where({ account_id: accountId, connection_id: connectionId }).whereNotNull('payload')
    .where('received_at', '<=', before)
    .update({ payload: null, outcome: db.raw(`coalesce(outcome, 'ignored')`), processed_at: db.raw('coalesce(processed_at, now())') });
}

// CRM rows. The CRM's service has no lookup by email and no redaction of activities yet, so the privacy rules read
// and scrub these two tables here, always by account; rollups still go through the CRM service.

/** The CRM's own contact row type: the privacy rules read what the CRM stores, field for field. */
export type ContactRecord = ContactRow;

/** Contacts by id or holding `email` (case-insensitively), locked for the caller's transaction when `lock` is set. */
export async function findContacts(db: Knex, accountId: string, ids: string[], email: string | null, lock = false): Promise<ContactRecord[]> {
  if (ids.length === 0 && !email) return [];
  const q = db('crm_contacts').where({ account_id: accountId }).where((w) => {
    if (ids.length) w.orWhereIn('id', ids);
    if (email) w.orWhereRaw('lower(email) = lower(?)', [email]);
  }).select('id', 'name', 'email', 'phone', 'company', 'tags', 'notes', 'source', 'commerce_total_spent_cents', 'commerce_order_count',
    'commerce_first_order_at', 'commerce_first_order_id', 'commerce_last_order_at', 'created_at', 'updated_at').orderBy('id');
  return lock ? q.forUpdate() : q;
}

export const ORDER_NOTE_REDACTED = 'Order details removed at the customer\'s request (privacy request).';

/** Scrubs the order notes (`commerce:order:<orderId>`) of these orders: body replaced, metadata reduced to the order id. */
export async function scrubOrderNotes(db: Knex, accountId: string, orderIds: string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const result = await db.raw(
    `update crm_contact_activities set body = ?, metadata = jsonb_build_object('source', 'commerce', 'redacted', true, 'order_id', substr(external_id, 16))
     where account_id = ? and external_id = any(?::text[])`,
    [ORDER_NOTE_REDACTED, accountId, orderIds.map((id) => `commerce:order:${id}`)],
  );
  return result.rowCount ?? 0;
}

export async function deleteContact(db: Knex, accountId: string, id: string): Promise<void> {
  await db('crm_contacts').where({ account_id: accountId, id }).delete();
}
