import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import type pg from 'pg';
import getRawBody from 'raw-body';
import type { Knex } from '../../src/db/knex';

/**
 * A bare webhook handler: reads the raw body (1 MiB limit, as ours), checks the base64 HMAC-SHA256 header against
 * the account's app client_secret in constant time, answers 200 or 401. No shop lookup, no dedup, no record, no
 * hand-off. The secret is read once and kept in memory.
 */
export function commerceWebhookBaseline(_db: Knex, pool: pg.Pool, accountId: string): Middleware {
  let secret: Promise<Buffer> | undefined;
  const secretOf = () =>
    (secret ??= pool
      .query("select client_secret from app_registrations where account_id = $1 and provider = 'commerce'", [accountId])
      .then((r) => Buffer.from(r.rows[0].client_secret as string)));
  return async (ctx) => {
    const raw = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: 1024 * 1024 });
    const given = Buffer.from(ctx.get('x-commerce-hmac-sha256'), 'base64');
    const expected = createHmac('sha256', await secretOf())
      .update(raw)
      .digest();
    const ok = given.length === expected.length && timingSafeEqual(given, expected);
    ctx.status = ok ? 200 : 401;
    ctx.body = ok ? { received: true, duplicate: false } : { code: 'webhook_signature_invalid' };
  };
}
