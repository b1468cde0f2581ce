import { createHmac, createSecretKey, randomBytes, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';

/** Credential prefixes: a leaked token is recognisable, and the kind is known before any lookup. */
export const CREDENTIAL_PREFIX = { session: 'wys_', agentKey: 'wyk_' } as const;

const ID_HEX = 32;
const SECRET_CHARS = 43; // 32 random bytes, base64url

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** HMAC-SHA256 keyed by SECRET_HASH_KEY: 256-bit random secrets need no slow hash, and a stolen table alone verifies nothing. */
export function hashSecret(hashKey: string, secret: string): string {
  return hmacOf(hashKey, secret).toString('hex');
}

/** The hash key as a KeyObject, made once: it runs on every authenticated request. */
const hashKeys = new Map<string, KeyObject>();
function hmacOf(hashKey: string, secret: string): Buffer {
  let key = hashKeys.get(hashKey);
  if (!key) hashKeys.set(hashKey, (key = createSecretKey(Buffer.from(hashKey, 'utf8'))));
  return createHmac('sha256', key).update(secret).digest();
}

export function secretMatches(hashKey: string, secret: string, storedHash: string): boolean {
  const actual = hmacOf(hashKey, secret);
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Constant-time comparison of two configured secrets of any length (both are hashed to equal length first). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHmac('sha256', 'compare').update(given).digest();
  const b = createHmac('sha256', 'compare').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A credential carries its row id (for a primary-key lookup) and the secret (compared by hash in constant time). */
export function newCredential(prefix: string): { id: string; secret: string; token: string } {
  const id = randomUUID();
  const secret = newSecret();
  return { id, secret, token: `${prefix}${id.replace(/-/g, '')}${secret}` };
}

export function parseCredential(prefix: string, token: string): { id: string; secret: string } | null {
  if (!token.startsWith(prefix) || token.length !== prefix.length + ID_HEX + SECRET_CHARS) return null;
  const hex = token.slice(prefix.length, prefix.length + ID_HEX);
  if (!/^[0-9a-f]{32}$/.test(hex)) return null;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { id, secret: token.slice(prefix.length + ID_HEX) };
}
