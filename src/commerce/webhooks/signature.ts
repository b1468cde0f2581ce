import { createHmac, timingSafeEqual } from 'node:crypto';

// Webhook verification (doc3 Authentication 2): base64 HMAC-SHA256 over the raw body, keyed by the app's
// client_secret. Separate from the OAuth callback verifier (hex over sorted query parameters) on purpose.

const BASE64_DIGEST = /^[A-Za-z0-9+/]{43}=$/;

/** Constant-time check of the `X-Commerce-Hmac-SHA256` header against each candidate secret. */
export function verifyWebhookSignature(secrets: string[], rawBody: Buffer, header: string | undefined): boolean {
  if (!header || !BASE64_DIGEST.test(header.trim())) return false;
  const given = Buffer.from(header.trim(), 'base64');
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    // No early exit: every candidate is checked, so timing does not tell which one matched.
    if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}
