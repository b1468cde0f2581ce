import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import type pg from 'pg';
import getRawBody from 'raw-body';
import type { Knex } from '../../src/db/knex';

/** The baseline's own table: the shape and indexes of `site_platform_inbound_events`, so the insert costs the same. */
export const BASELINE_TABLE = 'bench_site_webhook_baseline';

/**
 * A bare site-platform webhook handler: reads the raw body (1 MiB limit, as ours), checks the hex HMAC-SHA256 of
 * `<x-webflow-timestamp>:<rawBody>` under the client secret (kept in memory) in constant time, and makes ONE durable
 * `INSERT … ON CONFLICT DO NOTHING` per delivery (autocommit, event id = SHA-256 of the body); answers 200 or 401.
 * No connection lookup, no URL token, no skew check, no envelope parse, no group commit, no relay.
 */
export function siteWebhookBaseline(_db: Knex, pool: pg.Pool, accountId: string): Middleware {
  const secret = Buffer.from(process.env.SITE_PLATFORM_CLIENT_SECRET ?? '');
  const siteId = process.env.BENCH_SITE_ID ?? '';
  return async (ctx) => {
    const raw = await getRawBody(ctx.req, { length: ctx.get('content-length') || undefined, limit: 1024 * 1024 });
    const timestamp = ctx.get('x-webflow-timestamp');
    const given = Buffer.from(ctx.get('x-webflow-signature'), 'hex');
    const expected = createHmac('sha256', secret).update(`${timestamp}:`).update(raw).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      ctx.status = 401;
      ctx.body = { code: 'unauthorized' };
      return;
    }
    const inserted = await pool.query(
      `insert into ${BASELINE_TABLE} (account_id, site_id, event_id, trigger_type, payload, verified, verification)
       values ($1, $2, $3, 'collection_item_changed', $4::jsonb, true, 'hmac')
       on conflict (account_id, site_id, event_id) do nothing`,
      [accountId, siteId, createHash('sha256').update(raw).digest('hex'), raw.toString('utf8')],
    );
    ctx.status = 200;
    ctx.body = inserted.rowCount === 1 ? { received: true } : { received: true, replay: true };
  };
}
