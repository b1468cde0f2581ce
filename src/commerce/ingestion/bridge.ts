import { addActivities, setCommerceRollups, upsertContactsByEmail } from '../../crm/service';
import type { Knex } from '../../db/knex';
import type { NormalizedOrder } from './orderPayload';
import * as store from './store';
import type { OrderLogRow } from './store';

export interface BridgeResult {
  contactId: string | null;
  /** Whether this order was its contact's first, as the contact stood before the order was counted; null for guests. */
  firstOrder: boolean | null;
  /** The log row's backlink and first-order flag were (re)written to `contactId` / `firstOrder`. */
  linked: boolean;
}

export interface BridgeItem {
  row: OrderLogRow;
  order: NormalizedOrder;
}

const money = (cents: number, currency: string | null) => `${(cents / 100).toFixed(2)}${currency ? ` ${currency}` : ''}`;

/** When the order was placed, as the rollups see it. */
export const placedAt = (row: OrderLogRow): number => (row.order_created_at ?? row.created_at).getTime();

const byPlacement = (a: BridgeItem, b: BridgeItem) =>
  placedAt(a.row) - placedAt(b.row) || (a.row.order_id < b.row.order_id ? -1 : a.row.order_id > b.row.order_id ? 1 : 0);

/**
 * The CRM bridge of logged orders (doc3), set-based — a constant number of statements however many orders:
 * contacts upserted by email with source `commerce` (one statement for the distinct emails), backlinks, rollups
 * recomputed from the order log for every affected contact (net of refunds: the log keeps net totals), activity
 * notes `commerce:order:<orderId>`. A guest order (no email) skips the contact steps (an order that lost its email
 * is unlinked from its old contact). Runs inside the caller's transaction, which holds the account's order lock.
 *
 * First-order flag: decided when an order first enters a contact's rollups, from the contact's order count before
 * this batch (less the orders this batch moves away from it). When one batch brings several orders of a contact
 * without orders, the earliest placed one is the first order; an order already counted keeps its stored flag.
 * The item order ids must be distinct (the caller splits repeats into rounds).
 */
export async function bridgeOrdersToCrm(trx: Knex, accountId: string, items: BridgeItem[]): Promise<Map<string, BridgeResult>> {
  const results = new Map<string, BridgeResult>();
  const links: Array<{ id: string; contactId: string | null; firstOrder: boolean | null }> = [];
  const affected = new Set<string>();

  const known = items.filter((i) => i.order.email);
  const contacts = await upsertContactsByEmail(
    trx,
    accountId,
    known.map((i) => ({ email: i.order.email!, name: i.order.customerName })),
    'commerce',
  );
  const contactOf = (item: BridgeItem) => (item.order.email ? contacts.get(item.order.email.trim().toLowerCase())!.contact : null);

  // Orders of this batch that leave their contact (their email was edited away or removed).
  const leaving = new Map<string, number>();
  for (const item of items) {
    const previous = item.row.crm_contact_id;
    if (previous && previous !== (contactOf(item)?.id ?? null)) {
      leaving.set(previous, (leaving.get(previous) ?? 0) + 1);
      affected.add(previous);
    }
  }

  const newlyCounted = new Map<string, BridgeItem[]>();
  for (const item of items) {
    const contact = contactOf(item);
    if (!contact) {
      if (item.row.crm_contact_id) links.push({ id: item.row.id, contactId: null, firstOrder: null });
      results.set(item.row.id, { contactId: null, firstOrder: null, linked: item.row.crm_contact_id !== null });
      continue;
    }
    affected.add(contact.id);
    if (item.row.crm_contact_id === contact.id) {
      results.set(item.row.id, { contactId: contact.id, firstOrder: item.row.first_order, linked: false });
    } else {
      newlyCounted.set(contact.id, [...(newlyCounted.get(contact.id) ?? []), item]);
    }
  }
  for (const [contactId, arriving] of newlyCounted) {
    const contact = contactOf(arriving[0])!;
    const countBefore = contact.commerce_order_count - (leaving.get(contactId) ?? 0);
    arriving.sort(byPlacement).forEach((item, index) => {
      const firstOrder = countBefore === 0 && index === 0;
      links.push({ id: item.row.id, contactId, firstOrder });
      results.set(item.row.id, { contactId, firstOrder, linked: true });
    });
  }

  await store.setBacklinks(trx, accountId, links);
  const rollups = await store.rollupsOfContacts(trx, accountId, [...affected]);
  await setCommerceRollups(
    trx,
    accountId,
    [...rollups].map(([id, r]) => ({
      id,
      commerce_total_spent_cents: r.totalCents,
      commerce_order_count: r.count,
      commerce_first_order_at: r.firstOrderAt,
      commerce_first_order_id: r.firstOrderId,
      commerce_last_order_at: r.lastOrderAt,
    })),
  );

  await addActivities(
    trx,
    accountId,
    known.map(({ row, order }) => ({
      contactId: contactOf({ row, order })!.id,
      kind: 'note',
      body: `Order ${order.orderNumber ? `#${order.orderNumber.replace(/^#/, '')}` : order.orderId} placed in the shop: ${money(order.totalCents, order.currency)}`,
      externalId: `commerce:order:${order.orderId}`,
      ...(order.createdAt ? { occurredAt: order.createdAt } : {}),
      metadata: {
        source: 'commerce',
        connection_id: row.connection_id,
        order_id: order.orderId,
        order_number: order.orderNumber,
        total_amount_cents: order.totalCents,
        currency: order.currency,
      },
    })),
  );
  return results;
}

/** Items in the order a one-by-one bridge should take them, so first-order flags come out as the set-based bridge decides them. */
export function inPlacementOrder(items: BridgeItem[]): BridgeItem[] {
  return [...items].sort(byPlacement);
}
