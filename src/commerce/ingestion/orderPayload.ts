/**
 * Reads the platform's order JSON (Admin API 2025-04 shape, as sent by orders/* webhooks and the orders listing)
 * into the fields the order log keeps. Pure: no I/O.
 *
 * Amount rule (refunds stay right): the order's total NET of refunds, in the shop currency.
 * 1. `current_total_price` when present — the platform keeps it current through edits, refunds and returns;
 * 2. otherwise `total_price` minus the successful refund transactions in `refunds[].transactions[]`;
 * 3. never below zero.
 */
export interface NormalizedOrder {
  orderId: string;
  orderNumber: string | null;
  totalCents: number;
  currency: string | null;
  email: string | null;
  customerName: string | null;
  createdAt: Date | null;
  /** The platform's `updated_at`: the version of this order state (an older version never overwrites a newer one). */
  updatedAt: Date | null;
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

function dateOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

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
  const current = toCents(payload.current_total_price);
  if (current !== null) return Math.max(0, current);
  const total = payload.total_price === undefined ? 0 : toCents(payload.total_price);
  if (total === null) return null;
  return Math.max(0, total - refundedCents(payload));
}

function customerNameOf(payload: Json): string | null {
  const customer = isObject(payload.customer) ? payload.customer : {};
  const full = [text(customer.first_name), text(customer.last_name)].filter(Boolean).join(' ');
  if (full) return full;
  return isObject(payload.billing_address) ? text(payload.billing_address.name) : null;
}

export function readOrder(payload: unknown): OrderReading {
  if (!isObject(payload)) return { ok: false, reason: 'the order payload is not a JSON object' };
  const orderId = orderIdOf(payload);
  if (!orderId) return { ok: false, reason: 'the order payload has no usable id' };
  const totalCents = netTotalCents(payload);
  if (totalCents === null) return { ok: false, reason: 'the order total is not a decimal amount' };
  const customer = isObject(payload.customer) ? payload.customer : {};
  const number = payload.order_number;
  return {
    ok: true,
    order: {
      orderId,
      orderNumber: typeof number === 'number' || typeof number === 'string' ? String(number) : text(payload.name),
      totalCents,
      currency: text(payload.currency),
      email: text(payload.email) ?? text(payload.contact_email) ?? text(customer.email),
      customerName: customerNameOf(payload),
      createdAt: dateOf(payload.created_at),
      updatedAt: dateOf(payload.updated_at) ?? dateOf(payload.created_at),
    },
  };
}
