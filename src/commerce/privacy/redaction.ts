import { deleteContact, findContactsByIdsOrEmail, redactActivities, setCommerceRollup, type ContactRow } from '../../crm/service';
import type { Knex } from '../../db/knex';
import type { CustomerRedaction, ShopRedaction } from '../../../workflows/commercePrivacyRequest.contract';
import { emptyRequestItems, scrubConnectionItems } from '../../inbox/service';
import { scrubConnectionTriggers, scrubOrderTriggers } from '../../triggers/outbox';
import { deactivateSubscriptions, findConnection, updateConnection } from '../connections/store';
import { lockAccountOrders, rollupOfContact } from '../ingestion/store';
import { PRIVACY_DATA_REQUEST_KIND } from './dataPackage';
import { BRIDGE_FAILED_KIND, scrubCustomerTraces } from './customerTraces';
import { customerMatchOf } from './request';
import { scrubOrderPayload } from './scrub';
import * as store from './store';
import type { PrivacyRequestRow } from './store';

/** What an emptied data package says instead of the customer data it held. */
const PACKAGE_REDACTED_HINT = 'The shop was redacted (shop/redact): the packaged customer data was removed.';

/** Scrubs the order notes (`commerce:order:<orderId>`) of these orders: body replaced, metadata reduced to the order id. */
function scrubOrderNotes(trx: Knex, accountId: string, orderIds: string[]): Promise<number> {
  return redactActivities(
    trx,
    accountId,
    orderIds.map((orderId) => ({
      externalId: `commerce:order:${orderId}`,
      body: store.ORDER_NOTE_REDACTED,
      metadata: { source: 'commerce', redacted: true, order_id: orderId },
    })),
  );
}

/**
 * customers/redact, in the caller's transaction and under the account's order lock (ingestion waits meanwhile):
 * - the customer's orders in the shop: `customer_email` nulled, the payload scrubbed of personal data (customer,
 *   addresses, contact details, notes — order id, number and totals stay), the backlink to the CRM contact dropped;
 * - the order notes `commerce:order:<orderId>` of those orders: body replaced, metadata reduced to the order id;
 * - the order triggers of those orders in the workflow outbox: `customer_email` and the `contact_id` link nulled;
 * - the customer's privacy requests, data packages, inbox items and subscription triggers (customerTraces.ts);
 * - each CRM contact the orders pointed at or that holds the email: rollups recomputed from the orders still linked
 *   to it (zero when these were all). A contact the commerce bridge created (`source = commerce`) with no order left
 *   is deleted: it exists only because of the shop's data. A contact the account created itself, or one that still
 *   carries orders of another shop, is kept with its own fields — the account's relationship, not the shop's data.
 */
export async function redactCustomer(trx: Knex, request: PrivacyRequestRow): Promise<CustomerRedaction> {
  const accountId = request.account_id;
  await lockAccountOrders(trx, accountId);
  const match = customerMatchOf(request);
  const orders = request.connection_id ? await store.findCustomerOrders(trx, accountId, request.connection_id, match) : [];
  const linked = [...new Set(orders.map((o) => o.crm_contact_id).filter((id): id is string => Boolean(id)))];
  const contacts = await findContactsByIdsOrEmail(trx, accountId, linked, request.customer_email, true);

  for (const order of orders) await store.scrubOrderRow(trx, accountId, order.id, scrubOrderPayload(order.raw_payload), true);
  const notes = await scrubOrderNotes(
    trx,
    accountId,
    orders.map((o) => o.order_id),
  );
  if (request.connection_id)
    await scrubOrderTriggers(
      trx,
      accountId,
      request.connection_id,
      orders.map((o) => o.order_id),
    );
  await scrubCustomerTraces(
    trx,
    request,
    match,
    orders.map((o) => o.order_id),
  );

  return { orders_scrubbed: orders.length, notes_scrubbed: notes, ...(await settleContacts(trx, accountId, contacts)) };
}

/**
 * Each contact whose orders were just unlinked: rollups recomputed from the orders still linked to it (zero when
 * these were all). A contact the commerce bridge created (`source = commerce`) with no order left is deleted: it
 * exists only because of the shop's data. A contact the account created itself, or one that still carries orders
 * of another shop, is kept with its own fields. The caller holds the account's order lock and the contact locks.
 */
async function settleContacts(
  trx: Knex,
  accountId: string,
  contacts: ContactRow[],
): Promise<{ contacts_deleted: number; contacts_reset: number }> {
  const result = { contacts_deleted: 0, contacts_reset: 0 };
  for (const contact of contacts) {
    const r = await rollupOfContact(trx, accountId, contact.id);
    if (contact.source === 'commerce' && r.count === 0) {
      await deleteContact(trx, accountId, contact.id);
      result.contacts_deleted++;
      continue;
    }
    await setCommerceRollup(trx, accountId, contact.id, {
      commerce_total_spent_cents: r.totalCents,
      commerce_order_count: r.count,
      commerce_first_order_at: r.firstOrderAt,
      commerce_first_order_id: r.firstOrderId,
      commerce_last_order_at: r.lastOrderAt,
    });
    result.contacts_reset++;
  }
  return result;
}

/** Orders scrubbed per transaction: short transactions, so ingestion of the account never waits long. */
export const SHOP_SCRUB_BATCH = 500;

/**
 * shop/redact (the platform sends it 48 hours after an uninstall) anonymises or disconnects every person's data that
 * came from the shop up to the request (doc3):
 * - the connection is disconnected with every stored token dropped (admin, storefront, webhook secret,
 *   revalidation) and its subscriptions inactive — unless the shop was installed again after the request, which
 *   leaves the newer installation alone;
 * - every order row the shop logged is scrubbed like a customers/redact (email nulled, payload scrubbed, backlink
 *   dropped), its order note scrubbed, and the contacts it pointed at settled as customers/redact settles them;
 * - the shop's earlier privacy requests lose the customer they name, the data packages of its data requests are
 *   emptied, its triggers and inbox items lose the customer (email, platform id; triggers also the contact link),
 *   and deliveries still holding a body lose it.
 * Works in batches of 500 orders, each its own transaction; `onProgress` is called after each (the activity
 * heartbeats). Safe to run again: scrubbing a scrubbed row changes nothing.
 */
export async function redactShop(
  db: Knex,
  request: PrivacyRequestRow,
  onProgress: (scrubbed: number) => void = () => undefined,
): Promise<ShopRedaction> {
  const accountId = request.account_id;
  const connection = request.connection_id ? await findConnection(db, accountId, request.connection_id) : undefined;
  const result: ShopRedaction = {
    disconnected: false,
    reinstalled: false,
    orders_scrubbed: 0,
    notes_scrubbed: 0,
    contacts_deleted: 0,
    contacts_reset: 0,
  };
  if (!connection) return result;

  if (connection.installed_at && connection.installed_at > request.created_at) {
    result.reinstalled = true;
  } else {
    await db.transaction(async (trx) => {
      await deactivateSubscriptions(trx, accountId, connection.id);
      await updateConnection(trx, accountId, connection.id, {
        disconnected_at: connection.disconnected_at ?? new Date(),
        admin_token_enc: null,
        storefront_token_enc: null,
        webhook_secret_enc: null,
        revalidation_token: null,
      });
    });
    result.disconnected = true;
  }

  for (let after: string | null = null; ;) {
    const page = await store.shopOrdersPage(db, accountId, connection.id, request.created_at, after, SHOP_SCRUB_BATCH);
    if (page.length === 0) break;
    await db.transaction(async (trx) => {
      await lockAccountOrders(trx, accountId);
      const linked = [...new Set(page.map((o) => o.crm_contact_id).filter((id): id is string => Boolean(id)))];
      const contacts = await findContactsByIdsOrEmail(trx, accountId, linked, null, true);
      for (const row of page) await store.scrubOrderRow(trx, accountId, row.id, scrubOrderPayload(row.raw_payload), true);
      result.notes_scrubbed += await scrubOrderNotes(
        trx,
        accountId,
        page.map((o) => o.order_id),
      );
      const settled = await settleContacts(trx, accountId, contacts);
      result.contacts_deleted += settled.contacts_deleted;
      result.contacts_reset += settled.contacts_reset;
    });
    result.orders_scrubbed += page.length;
    onProgress(result.orders_scrubbed);
    if (page.length < SHOP_SCRUB_BATCH) break;
    after = page[page.length - 1].id;
  }

  await db.transaction(async (trx) => {
    const requests = await store.shopPrivacyRequests(trx, accountId, connection.id, request.id, request.created_at);
    for (const r of requests) await store.scrubPrivacyRequest(trx, accountId, r.id, scrubOrderPayload(r.raw_payload));
    await emptyRequestItems(
      trx,
      accountId,
      PRIVACY_DATA_REQUEST_KIND,
      requests.map((r) => r.id),
      PACKAGE_REDACTED_HINT,
    );
    await scrubConnectionTriggers(trx, accountId, connection.id);
    await scrubConnectionItems(trx, accountId, connection.id, BRIDGE_FAILED_KIND);
    await store.dropWaitingDeliveryBodies(trx, accountId, connection.id, request.created_at);
  });
  return result;
}
