import { setCommerceRollup } from '../../crm/service';
import type { Knex } from '../../db/knex';
import { deactivateSubscriptions, findConnection, updateConnection } from '../connections/store';
import { lockAccountOrders, rollupOfContact } from '../ingestion/store';
import { customerMatchOf } from './request';
import { scrubOrderPayload } from './scrub';
import * as store from './store';
import type { PrivacyRequestRow } from './store';

export interface CustomerRedaction {
  orders_scrubbed: number;
  notes_scrubbed: number;
  contacts_deleted: number;
  contacts_reset: number;
}

/**
 * customers/redact, in the caller's transaction and under the account's order lock (ingestion waits meanwhile):
 * - the customer's orders in the shop: `customer_email` nulled, the payload scrubbed of personal data (customer,
 *   addresses, contact details, notes — order id, number and totals stay), the backlink to the CRM contact dropped;
 * - the order notes `commerce:order:<orderId>` of those orders: body replaced, metadata reduced to the order id;
 * - each CRM contact the orders pointed at or that holds the email: rollups recomputed from the orders still linked
 *   to it (zero when these were all). A contact the commerce bridge created (`source = commerce`) with no order left
 *   is deleted: it exists only because of the shop's data. A contact the account created itself, or one that still
 *   carries orders of another shop, is kept with its own fields — the account's relationship, not the shop's data.
 */
export async function redactCustomer(trx: Knex, request: PrivacyRequestRow): Promise<CustomerRedaction> {
  const accountId = request.account_id;
  await lockAccountOrders(trx, accountId);
  const orders = request.connection_id ? await store.findCustomerOrders(trx, accountId, request.connection_id, customerMatchOf(request)) : [];
  const linked = [...new Set(orders.map((o) => o.crm_contact_id).filter((id): id is string => Boolean(id)))];
  const contacts = await store.findContacts(trx, accountId, linked, request.customer_email, true);

  for (const order of orders) await store.scrubOrderRow(trx, accountId, order.id, scrubOrderPayload(order.raw_payload), true);
  const notes = await store.scrubOrderNotes(trx, accountId, orders.map((o) => o.order_id));

  const result: CustomerRedaction = { orders_scrubbed: orders.length, notes_scrubbed: notes, contacts_deleted: 0, contacts_reset: 0 };
  for (const contact of contacts) {
    const r = await rollupOfContact(trx, accountId, contact.id);
    if (contact.source === 'commerce' && r.count === 0) {
      await store.deleteContact(trx, accountId, contact.id);
      result.contacts_deleted++;
      continue;
    }
    await setCommerceRollup(trx, accountId, contact.id, {
      commerce_total_spent_cents: r.totalCents, commerce_order_count: r.count, commerce_first_order_at: r.firstOrderAt,
      commerce_first_order_id: r.firstOrderId, commerce_last_order_at: r.lastOrderAt,
    });
    result.contacts_reset++;
  }
  return result;
}

export interface ShopRedaction {
  /** The connection was disconnected and its tokens dropped by this redaction (or already was). */
  disconnected: boolean;
  /** The shop was installed again after the request: that newer installation is left connected. */
  reinstalled: boolean;
  orders_scrubbed: number;
}

/** Orders scrubbed per transaction: short transactions, so ingestion of the account never waits long. */
export const SHOP_SCRUB_BATCH = 500;

/**
 * shop/redact (the platform sends it 48 hours after an uninstall): the connection is disconnected with every stored
 * token dropped (admin, storefront, webhook secret, revalidation) and its subscriptions inactive — unless the shop
 * was installed again after the request, which leaves the newer installation alone — and every order row the shop
 * logged up to the request is scrubbed like a customers/redact (email nulled, payload scrubbed). Backlinks to CRM
 * contacts stay: the contacts are the account's CRM, and their rollups stay consistent with the log. Works in
 * batches of 500 rows, each its own transaction; `onProgress` is called after each (the activity heartbeats).
 * Safe to run again: scrubbing a scrubbed row changes nothing.
 */
export async function redactShop(db: Knex, request: PrivacyRequestRow, onProgress: (scrubbed: number) => void = () => undefined): Promise<ShopRedaction> {
  const accountId = request.account_id;
  const connection = request.connection_id ? await findConnection(db, accountId, request.connection_id) : undefined;
  const result: ShopRedaction = { disconnected: false, reinstalled: false, orders_scrubbed: 0 };
  if (!connection) return result;

  if (connection.installed_at && connection.installed_at > request.created_at) {
    result.reinstalled = true;
  } else {
    await db.transaction(async (trx) => {
      await deactivateSubscriptions(trx, accountId, connection.id);
      await updateConnection(trx, accountId, connection.id, {
        disconnected_at: connection.disconnected_at ?? new Date(),
        admin_token_enc: null, storefront_token_enc: null, webhook_secret_enc: null, revalidation_token: null,
      });
    });
    result.disconnected = true;
  }

  for (let after: string | null = null; ;) {
    const page = await store.shopOrdersPage(db, accountId, connection.id, request.created_at, after, SHOP_SCRUB_BATCH);
    if (page.length === 0) break;
    await db.transaction(async (trx) => {
      await lockAccountOrders(trx, accountId);
      for (const row of page) await store.scrubOrderRow(trx, accountId, row.id, scrubOrderPayload(row.raw_payload), false);
    });
    result.orders_scrubbed += page.length;
    onProgress(result.orders_scrubbed);
    if (page.length < SHOP_SCRUB_BATCH) break;
    after = page[page.length - 1].id;
  }
  return result;
}
