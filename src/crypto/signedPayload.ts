import { createHmac, timingSafeEqual } from 'node:crypto';

const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

/** `base64url(JSON).base64url(HMAC-SHA256)`: URL-safe, so it comes back through an OAuth provider unchanged. */
export function signPayload(key: Buffer, data: unknown): string {
  const payload = Buffer.from(JSON.stringify(data)).toString('base64url');
  return `${payload}.${mac(key, payload)}`;
}

/** The JSON a token carries when its signature is ours (checked in constant time); undefined for anything else. */
export function readSignedPayload(key: Buffer, token: string): unknown {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
