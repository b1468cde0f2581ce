import { createHmac, timingSafeEqual } from 'node:crypto';

/** Query parameters of the OAuth callback as received (a repeated parameter arrives as an array). */
export type CallbackQuery = Record<string, string | string[] | undefined>;

/**
 * The signed message of an OAuth callback: every query parameter except `hmac` and `signature`, sorted by name,
 * as `key=value` joined with `&` (decoded values, as the platform signs them).
 */
export function callbackMessage(query: CallbackQuery): string {
  return Object.keys(query)
    .filter((key) => key !== 'hmac' && key !== 'signature' && query[key] !== undefined)
    .sort()
    .map((key) => {
      const value = query[key];
      return `${key}=${Array.isArray(value) ? value.join(',') : value}`;
    })
    .join('&');
}

/** Hex HMAC-SHA256 of the callback message keyed by the app's client secret. */
export function callbackHmac(clientSecret: string, query: CallbackQuery): string {
  return createHmac('sha256', clientSecret).update(callbackMessage(query)).digest('hex');
}

/**
 * True when the callback's `hmac` is the platform's signature, compared in constant time. This verifier is for the
 * OAuth callback only (hex over the query); webhook deliveries use their own (base64 over the raw body).
 */
export function verifyCallbackHmac(clientSecret: string, query: CallbackQuery): boolean {
  const given = query.hmac;
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = Buffer.from(callbackHmac(clientSecret, query), 'hex');
  return timingSafeEqual(Buffer.from(given.toLowerCase(), 'hex'), expected);
}
