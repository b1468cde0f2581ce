import { createHmac, timingSafeEqual } from 'node:crypto';

/** How old a signed timestamp may be (either way) before the site refuses it as a replay. */
export const TOLERANCE_SECONDS = 300;

/**
 * What a deployed site does with `Workyard-Signature: t=<unix>,v1=<hex>`: recompute HMAC-SHA256 of `<t>.<body>`
 * with its secret and compare in constant time; written from the protocol, not from the sender's code, so a test
 * that passes proves the two agree.
 */
export function verifySignature(
  header: string | undefined,
  body: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  const candidates = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v);
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > TOLERANCE_SECONDS || candidates.length === 0) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  return candidates.some((given) => {
    const g = Buffer.from(given);
    return g.length === expected.length && timingSafeEqual(g, expected);
  });
}
