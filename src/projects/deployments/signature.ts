import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'Workyard-Signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256>` over `<t>.<exact body>`, keyed with the whole secret (`wyrv_…`, as UTF-8
 * bytes), as Stripe signs webhooks: a site recomputes it, compares in constant time and refuses an old `t`.
 */
export function revalidationSignature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
