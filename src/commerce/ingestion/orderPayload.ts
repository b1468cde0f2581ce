/**
 * Reads the platform's order JSON (Admin API 2025-04 shape, as sent by orders/* webhooks and the orders listing)
 * into the fields the order log keeps. Pure: no I/O. The webhook handler and the backfill both read orders here.
 *
 * What an order needs (anything less is refused as invalid, and nothing of it is written):
 * - `id`: a positive integer, or an id string of letters, digits and `_:/.-`;
 * - `currency`: the shop currency, a three-letter ISO 4217 code;
 * - `created_at` and `updated_at`: ISO 8601 date-times with an offset;
 * - `total_price` (and `current_total_price` when present): decimal amounts.
 *
 * Amount rule (refunds stay right): the order's total NET of refunds, in the shop currency.
 * 1. `current_total_price` when present — the platform keeps it current through edits, refunds and returns;
 * 2. otherwise `total_price` minus the successful refund transactions in `refunds[].transactions[]`;
 * 3. never below zero.
 *
 * Time rule: an order is never later than its arrival. `created_at` and `updated_at` are clamped to the time the
 * order was received (the delivery's receipt, the listing page's answer), so an order stamped in the future cannot
 * move the backfill window past real orders, outrank their later updates, or date the CRM rollups ahead.
 */
export interface NormalizedOrder {
  orderId: string;
  orderNumber: string | null;
  totalCents: number;
  currency: string;
  email: string | null;
  customerName: string | null;
  createdAt: Date;
  /** The platform's `updated_at` (clamped): the version of this order state (an older version never overwrites a newer one). */
  updatedAt: Date;
}

export type OrderReading = { ok: true; order: NormalizedOrder } | { ok: false; reason: string };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** `12.5`, `"12.50"`, `"-3"` → cents, rounded half away from zero; null for anything else or past safe integers. */
export function toCents(value: unknown): number | null {
  const raw = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(3) : typeof value === 'string' ? value.trim() : null;
  const match = raw === null ? null : /^(-?)(\d{1,15})(?:\.(\d*))?$/.exec(raw);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = fraction.padEnd(3, '0');
  const cents = Number(whole) * 100 + Number(digits.slice(0, 2)) + (Number(digits[2]) >= 5 ? 1 : 0);
  if (!Number.isSafeInteger(cents)) return null;
  return sign === '-' && cents !== 0 ? -cents : cents;
}

function orderIdOf(payload: Json): string | null {
  const id = payload.id;
  if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) return String(id);
  if (typeof id === 'string' && /^[A-Za-z0-9_:/.-]{1,200}$/.test(id)) return id;
  return null;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;
const CURRENCY = /^[A-Z]{3}$/;

function dateOf(value: unknown): Date | null {
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value.trim())) return null;
  const date = new Date(value.trim());
  return Number.isNaN(date.getTime()) ? null : date;
}

const notAfter = (date: Date, limit: Date | undefined): Date => (limit && date.getTime() > limit.getTime() ? new Date(limit) : date);

function refundedCents(payload: Json): number {
  if (!Array.isArray(payload.refunds)) return 0;
  let sum = 0;
  for (const refund of payload.refunds) {
    if (!isObject(refund) || !Array.isArray(refund.transactions)) continue;
    for (const t of refund.transactions) {
      if (!isObject(t) || t.kind !== 'refund' || (t.status !== undefined && t.status !== 'success')) continue;
      sum += Math.max(0, toCents(t.amount) ?? 0);
    }
  }
  return sum;
}

function netTotalCents(payload: Json): number | null {
  const total = toCents(payload.total_price);
  if (total === null) return null;
  if (payload.current_total_price === undefined || payload.current_total_price === null) return Math.max(0, total - refundedCents(payload));
  const current = toCents(payload.current_total_price);
  return current === null ? null : Math.max(0, current);
}

function customerNameOf(payload: Json): string | null {
  const customer = isObject(payload.customer) ? payload.customer : {};
  const full = [text(customer.first_name), text(customer.last_name)].filter(Boolean).join(' ');
  if (full) return full;
  return isObject(payload.billing_address) ? text(payload.billing_address.name) : null;
}

/**
 * The order in `payload`, or why it is not one. `receivedAt`: when it arrived (its dates are clamped to it); without
 * it the dates are taken as stamped.
 */
export function readOrder(payload: unknown, receivedAt?: Date): OrderReading {
  if (!isObject(payload)) return { ok: false, reason: 'the order payload is not a JSON object' };
  const orderId = orderIdOf(payload);
  if (!orderId) return { ok: false, reason: 'the order payload has no usable id' };
  const currency = typeof payload.currency === 'string' && CURRENCY.test(payload.currency) ? payload.currency : null;
  if (!currency) return { ok: false, reason: 'the order has no currency (a three-letter ISO 4217 code)' };
  const createdAt = dateOf(payload.created_at);
  const updatedAt = dateOf(payload.updated_at);
  if (!createdAt || !updatedAt) return { ok: false, reason: 'the order has no created_at and updated_at (ISO 8601 date-times)' };
  const totalCents = netTotalCents(payload);
  if (totalCents === null) return { ok: false, reason: 'the order total (total_price, current_total_price) is not a decimal amount' };
  const customer = isObject(payload.customer) ? payload.customer : {};
  const number = payload.order_number;
  return {
    ok: true,
    order: {
      orderId,
      orderNumber: typeof number === 'number' || typeof number === 'string' ? String(number) : text(payload.name),
      totalCents,
      currency,
      email: text(payload.email) ?? text(payload.contact_email) ?? text(customer.email),
      customerName: customerNameOf(payload),
      createdAt: notAfter(createdAt, receivedAt),
      updatedAt: notAfter(updatedAt, receivedAt),
    },
  };
}
