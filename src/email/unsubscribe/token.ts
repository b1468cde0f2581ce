import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../crypto/aesGcm';
import { uuidFromBytes, uuidToBytes } from '../../http/ids';

/**
 * The token of a one-click unsubscribe link: whom it unsubscribes, from which account, and a MAC, so the link is
 * verified without a database read and cannot be altered to name anyone else.
 *
 *     base64url( 0x01 ‖ account id (16 bytes) ‖ email id (16 bytes) ‖ recipient (UTF-8, lower case) ‖ mac (16 bytes) )
 *
 * `mac` is HMAC-SHA256 over everything before it, cut to 128 bits, under a key derived (HKDF-SHA256) from the server
 * secret (SECRET_HASH_KEY) for this purpose alone. The recipient is readable in the token: the link is in that
 * recipient's own copy only.
 */
export interface UnsubscribeTarget {
  accountId: string;
  emailId: string;
  /** Lower case. */
  recipient: string;
}

const VERSION = 1;
const MAC_BYTES = 16;
const HEAD_BYTES = 1 + 16 + 16;
/** Longer than any token of a valid address (254 octets). */
export const MAX_TOKEN_LENGTH = 512;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function unsubscribeToken(secret: string, target: UnsubscribeTarget): string {
  const payload = Buffer.concat([
    Buffer.of(VERSION),
    uuidToBytes(target.accountId),
    uuidToBytes(target.emailId),
    Buffer.from(target.recipient.toLowerCase(), 'utf8'),
  ]);
  return Buffer.concat([payload, macOf(secret, payload)]).toString('base64url');
}

/** The target of a token we made; null for anything else (malformed, altered, or made under another secret). */
export function readUnsubscribeToken(secret: string, token: string): UnsubscribeTarget | null {
  if (token.length > MAX_TOKEN_LENGTH || !BASE64URL.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.toString('base64url') !== token || bytes.length <= HEAD_BYTES + MAC_BYTES || bytes[0] !== VERSION) return null;
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  if (!timingSafeEqual(macOf(secret, payload), bytes.subarray(bytes.length - MAC_BYTES))) return null;
  return {
    accountId: uuidFromBytes(payload.subarray(1, 17)),
    emailId: uuidFromBytes(payload.subarray(17, HEAD_BYTES)),
    recipient: payload.subarray(HEAD_BYTES).toString('utf8'),
  };
}

function macOf(secret: string, payload: Buffer): Buffer {
  return createHmac('sha256', keyOf(secret)).update(payload).digest().subarray(0, MAC_BYTES);
}

let derived: { secret: string; key: Buffer } | null = null;

/** Its own key, so a token never passes as any other MAC made with the server secret. Derived once per secret. */
function keyOf(secret: string): Buffer {
  if (derived?.secret !== secret) derived = { secret, key: deriveKey(secret, 'email-unsubscribe') };
  return derived.key;
}
