import { createHmac, timingSafeEqual } from 'node:crypto';

/** doc2 Limits "HMAC clock skew": a timestamp further than this from now, either way, is refused. */
export const MAX_SKEW_MS = 5 * 60_000;

const TIMESTAMP = /^\d{1,16}$/;
const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** Why a signed delivery was refused (kept in the bounded unverified row, never answered to the platform). */
export type SignatureRefusal = 'signature_missing' | 'timestamp_invalid' | 'timestamp_skewed' | 'signature_mismatch' | 'secret_unavailable';

/** The platform's signature: hex HMAC-SHA256 over `<timestamp>:<rawBody>` keyed by the OAuth app's client secret. */
export function platformSignature(secret: string, timestamp: string, rawBody: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}:`, 'utf8').update(rawBody).digest();
}

/**
 * Checks `x-webflow-timestamp` (ms since the epoch) and `x-webflow-signature` against the raw bytes, in constant time;
 * undefined when the delivery verifies, else why not. The timestamp is part of the signed text, so a replay cannot
 * move it; a timestamp off by more than MAX_SKEW_MS (either way) is refused even when the signature matches.
 */
export function checkPlatformSignature(
  secret: string | undefined,
  rawBody: Buffer,
  timestamp: string | undefined,
  signature: string | undefined,
  now: number,
): SignatureRefusal | undefined {
  if (!timestamp || !signature) return 'signature_missing';
  const ts = timestamp.trim();
  const sig = signature.trim();
  if (!TIMESTAMP.test(ts)) return 'timestamp_invalid';
  if (Math.abs(now - Number(ts)) > MAX_SKEW_MS) return 'timestamp_skewed';
  if (!secret) return 'secret_unavailable';
  if (!HEX_DIGEST.test(sig)) return 'signature_mismatch';
  const expected = platformSignature(secret, ts, rawBody);
  const given = Buffer.from(sig, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'signature_mismatch';
}
