/**
 * What of a stored order payload (Admin API 2025-04 order JSON) is personal data, and what is a bearer secret.
 * Pure functions over JSON; both return a new value and leave their input alone.
 */

/**
 * Keys that identify, locate or describe the customer, removed wherever they appear: the customer object, every
 * address (billing, shipping, fulfilment destination), contact details, browser and device details, free text the
 * buyer typed (notes, note attributes, line-item properties) and parcel tracking. What stays — order id, number,
 * dates, currency, totals, line items, refunds, statuses — keeps the order log useful for reporting.
 */
const PII_KEYS = new Set([
  'customer',
  'email',
  'contact_email',
  'phone',
  'sms_marketing_phone',
  'first_name',
  'last_name',
  'billing_address',
  'shipping_address',
  'default_address',
  'addresses',
  'destination',
  'client_details',
  'browser_ip',
  'payment_details',
  'note',
  'note_attributes',
  'properties',
  'landing_site',
  'referring_site',
  'tracking_number',
  'tracking_numbers',
  'tracking_url',
  'tracking_urls',
]);

/** Keys that work as bearer secrets for the order (its status page, checkout and cart): never handed out. */
const SECRET_KEYS = new Set(['token', 'cart_token', 'checkout_token', 'order_status_url']);

function without(value: unknown, drop: (key: string) => boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => without(v, drop));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!drop(key)) out[key] = without(v, drop);
  }
  return out;
}

/** The payload with every personal-data key and every secret removed (customers/redact, shop/redact). */
export function scrubOrderPayload(payload: unknown): unknown {
  return without(payload, (key) => PII_KEYS.has(key) || SECRET_KEYS.has(key));
}

/** The payload without its bearer secrets, personal data kept (the customer's own data package). */
export function withoutSecrets(payload: unknown): unknown {
  return without(payload, (key) => SECRET_KEYS.has(key));
}

/** Ids the platform lists in a privacy payload (`orders_to_redact`, `orders_requested`), as text. */
export function orderIdsOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((v) => {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return [String(v)];
    if (typeof v === 'string' && /^[A-Za-z0-9_:/.-]{1,200}$/.test(v)) return [v];
    return [];
  });
}
