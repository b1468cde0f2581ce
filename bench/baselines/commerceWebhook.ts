import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import type pg from 'pg';
import getRawBody from 'raw-body';
import type { Knex } from '../../src/db/knex';

/** The fair baseline's own table: the shape, keys and indexes of `commerce_webhook_deliveries`. */
export const FAIR_BASELINE_TABLE = 'bench_commerce_webhook_baseline';
/** Path of the fair baseline on the baseline server; `/` is the HMAC-only one. */
export const FAIR_BASELINE_PATH = '/fair';

/**
 * Two bare webhook handlers on one server. Both read the raw body (1 MiB limit, as ours) and check the base64
 * HMAC-SHA256 header against the account's app client_secret in constant time (the secret is read once and kept in
 * memory), answering 200 or 401.
 * - `/`: nothing more — no shop lookup, no dedup, no record, no hand-off (context).
 * - `/fair`: then ONE durable `INSERT … ON CONFLICT DO NOTHING` per delivery (autocommit, synchronous_commit on) into
 *   a table of the same shape as our dedup record, keyed (connection_id, webhook_id): the least a receiver that may
 *   not lose a delivery must do. The connection id is known up front (`BENCH_CONNECTION_ID`): no shop lookup.
 */
export function commerceWebhookBaseline(_db: Knex, pool: pg.Pool, accountId: string): Middleware {
  let secret: Promise<Buffer> | undefined;
  const secretOf = () =>
    (secret ??= pool
      .query("select client_secret from app_registrations where account_id = $1 and provider = 'commerce'", [accountId])
      .then((r) => Buffer.from(r.rows[0].client_secret as string)));
  const connectionId = process.env.BENCH_CONNECTION_ID ?? '';
  return async (ctx) => {
    const raw = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: 1024 * 1024 });
    const given = Buffer.from(ctx.get('x-commerce-hmac-sha256'), 'base64');
    const expected = createHmac('sha256', await secretOf())
      .update(raw)
      .digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      ctx.status = 401;
      ctx.body = { code: 'webhook_signature_invalid' };
      return;
    }
    if (ctx.path !== FAIR_BASELINE_PATH) {
      ctx.status = 200;
      ctx.body = { received: true, duplicate: false };
      return;
    }
    const inserted = await pool.query(
      `insert into ${FAIR_BASELINE_TABLE} (account_id, connection_id, webhook_id, topic, payload)
       values ($1, $2, $3, $4, $5::jsonb)
       on conflict (connection_id, webhook_id) do nothing`,
      [accountId, connectionId, ctx.get('x-commerce-webhook-id'), ctx.get('x-commerce-topic'), raw.toString('utf8')],
    );
    ctx.status = 200;
    ctx.body = { received: true, duplicate: inserted.rowCount !== 1 };
  };
}
