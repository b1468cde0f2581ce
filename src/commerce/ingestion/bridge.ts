import { addActivity, setCommerceRollup, upsertContactByEmail } from '../../crm/service';
import type { Knex } from '../../db/knex';
import type { NormalizedOrder } from './orderPayload';
import * as store from './store';
import type { OrderLogRow } from './store';

export interface BridgeResult {
  contactId: string | null;
  /** Whether this order was its contact's first, as the contact stood before the order was counted; null for guests. */
  firstOrder: boolean | null;
}

const money = (cents: number, currency: string | null) => `${(cents / 100).toFixed(2)}${currency ? ` ${currency}` : ''}`;

async function recomputeRollup(trx: Knex, accountId: string, contactId: string): Promise<void> {
  const r = await store.rollupOfContact(trx, accountId, contactId);
  await setCommerceRollup(trx, accountId, contactId, {
    commerce_total_spent_cents: r.totalCents,
    commerce_order_count: r.count,
    commerce_first_order_at: r.firstOrderAt,
    commerce_first_order_id: r.firstOrderId,
    commerce_last_order_at: r.lastOrderAt,
  });
}

/**
 * The CRM bridge of one logged order (doc3): contact upserted by email with source `commerce`, backlink, rollups
 * recomputed from the order log, activity note `commerce:order:<orderId>`. A guest order (no email) skips the
 * contact steps. Runs inside the caller's transaction, which holds the account's order lock, so the contact's
 * order count read here is the state before this order is counted.
 */
export async function bridgeOrderToCrm(trx: Knex, accountId: string, row: OrderLogRow, order: NormalizedOrder): Promise<BridgeResult> {
  const previousContactId = row.crm_contact_id;
  if (!order.email) {
    if (previousContactId) {
      await store.setBacklink(trx, accountId, row.id, null, null);
      await recomputeRollup(trx, accountId, previousContactId);
    }
    return { contactId: null, firstOrder: null };
  }

  const { contact } = await upsertContactByEmail(trx, accountId, { email: order.email, name: order.customerName, source: 'commerce' });
  const newlyCounted = previousContactId !== contact.id;
  const firstOrder = newlyCounted ? contact.commerce_order_count === 0 : row.first_order;
  if (newlyCounted) await store.setBacklink(trx, accountId, row.id, contact.id, firstOrder);
  await recomputeRollup(trx, accountId, contact.id);
  // The order changed hands (its email was edited): the old contact no longer counts it.
  if (previousContactId && newlyCounted) await recomputeRollup(trx, accountId, previousContactId);

  await addActivity(trx, accountId, contact.id, {
    kind: 'note',
    body: `Order ${order.orderNumber ? `#${order.orderNumber.replace(/^#/, '')}` : order.orderId} placed in the shop: ${money(order.totalCents, order.currency)}`,
    externalId: `commerce:order:${order.orderId}`,
    ...(order.createdAt ? { occurredAt: order.createdAt } : {}),
    metadata: { source: 'commerce', connection_id: row.connection_id, order_id: order.orderId, order_number: order.orderNumber, total_amount_cents: order.totalCents, currency: order.currency },
  });
  return { contactId: contact.id, firstOrder };
}
