/**
 * Realistic orders: repeat customers (so CRM rollups have something to add up), about one guest in five (no
 * email, no customer), line items drawn from the shop's catalog, totals that add up, second-precision timestamps
 * later than every order the shop already has.
 */
import { gid, isoSeconds, type ShopState, type SimCustomer, type SimLineItem, type SimOrder, type SimState } from './state';

const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Zoë', 'Björn', 'Chidi', 'Mei', 'Ravi', 'Lucía', 'Tomasz'];
const LAST = ['Lovelace', 'Hopper', 'Okafor', 'Hamilton', 'Turing', 'Müller', 'Nakamura', 'Silva', 'Kowalski', 'Iyer'];
const CUSTOMER_POOL = 8;
const DAY_MS = 24 * 3600_000;

const cents = (n: number): string => (n / 100).toFixed(2);
const toCents = (price: string): number => Math.round(Number(price) * 100);

function pick<T>(state: SimState, list: T[]): T {
  return list[Math.floor(state.random() * list.length)];
}

export function newCustomer(state: SimState, shop: ShopState, email: string | null, at: string): SimCustomer {
  const id = state.nextId();
  const first = pick(state, FIRST);
  const last = pick(state, LAST);
  const customer: SimCustomer = {
    id,
    admin_graphql_api_id: gid('Customer', id),
    email: email ?? `${first}.${last}.${shop.customers.length + 1}@example.com`.toLowerCase(),
    first_name: first,
    last_name: last,
    phone: null,
    created_at: at,
    updated_at: at,
    tags: '',
  };
  shop.customers.push(customer);
  return customer;
}

function chooseCustomer(state: SimState, shop: ShopState, at: string): SimCustomer | null {
  if (state.random() < 0.2) return null;
  if (shop.customers.length < CUSTOMER_POOL && state.random() < 0.6) return newCustomer(state, shop, null, at);
  return shop.customers.length > 0 ? pick(state, shop.customers) : newCustomer(state, shop, null, at);
}

function lineItems(state: SimState, shop: ShopState): SimLineItem[] {
  const count = 1 + Math.floor(state.random() * 3);
  return Array.from({ length: count }, () => {
    const product = pick(state, shop.products);
    const variant = product.variants[0];
    const id = state.nextId();
    return {
      id,
      admin_graphql_api_id: gid('LineItem', id),
      product_id: product.id,
      variant_id: variant.id,
      title: product.title,
      variant_title: variant.title === 'Default Title' ? null : variant.title,
      sku: variant.sku,
      quantity: 1 + Math.floor(state.random() * 3),
      price: variant.price,
    };
  });
}

/** The timestamps of a batch of `count` new orders: evenly spread after the shop's latest order, up to now. */
export function batchTimes(shop: ShopState, count: number): number[] {
  const now = Math.floor(Date.now() / 1000) * 1000;
  const latest = Math.max(0, ...shop.orders.map((o) => Date.parse(o.updated_at)));
  const from = Math.min(now, Math.max(latest + 1000, now - DAY_MS));
  const step = count > 1 ? Math.floor((now - from) / (count - 1) / 1000) * 1000 : 0;
  return Array.from({ length: count }, (_, i) => (count > 1 ? from + step * i : now));
}

/** A full order from a partial one; given fields win, missing ones are generated. */
export function buildOrder(state: SimState, shop: ShopState, partial: Partial<SimOrder>, atMs: number): SimOrder {
  const at = partial.created_at ?? partial.updated_at ?? isoSeconds(atMs);
  const id = partial.id ?? state.nextId();
  const number = partial.order_number ?? shop.nextOrderNumber;
  shop.nextOrderNumber = Math.max(shop.nextOrderNumber, number + 1);
  const customer =
    partial.customer !== undefined
      ? partial.customer
      : partial.email === null
        ? null
        : partial.email !== undefined
          ? (shop.customers.find((c) => c.email === partial.email) ?? newCustomer(state, shop, partial.email, at))
          : chooseCustomer(state, shop, at);
  const items = partial.line_items ?? lineItems(state, shop);
  const subtotal = items.reduce((sum, li) => sum + toCents(li.price) * li.quantity, 0);
  const tax = Math.round(subtotal * 0.08);
  const email = partial.email !== undefined ? partial.email : (customer?.email ?? null);
  const closed = state.random() < 0.15;
  return {
    id,
    admin_graphql_api_id: gid('Order', id),
    name: `#${number}`,
    order_number: number,
    email,
    contact_email: email,
    created_at: at,
    updated_at: at,
    processed_at: at,
    closed_at: closed ? at : null,
    cancelled_at: null,
    cancel_reason: null,
    currency: shop.info.currency,
    presentment_currency: shop.info.currency,
    subtotal_price: cents(subtotal),
    total_tax: cents(tax),
    total_discounts: '0.00',
    total_price: cents(subtotal + tax),
    financial_status: 'paid',
    fulfillment_status: closed ? 'fulfilled' : null,
    source_name: 'web',
    tags: '',
    note: null,
    test: false,
    customer,
    line_items: items,
    ...partial,
  } as SimOrder;
}
