// Child process of the crm-search scenario: our API and the bare baseline, side by side in one process,
// so the load generator (the parent) never shares their event loop.
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import { contactPageQuery } from '../../src/crm/contactStore';
import { createDb } from '../../src/db/knex';
import { createApp } from '../../src/http/app';
import { createMetrics } from '../../src/http/metrics';
import { createLogger } from '../../src/logger';
import { connectTemporal } from '../../src/temporal/client';

const POOL = 10;

async function main() {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const accountId = process.env.BENCH_ACCOUNT_ID!;
  const db = createDb(config.DATABASE_URL!, POOL);
  const client = await connectTemporal(config.TEMPORAL_ADDRESS!, config.TEMPORAL_NAMESPACE);
  const ours = createApp({
    config, db, logger: createLogger('warn'), metrics: createMetrics(false), schedules: [],
    temporal: { client, namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE },
    secretHashKey: config.SECRET_HASH_KEY!,
  });

  // The baseline: one handler, one indexed SELECT (the same page query our store builds), raw pg, no auth, no count.
  const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: POOL });
  const baseline = new Koa();
  baseline.use(async (ctx) => {
    const search = String(ctx.query.search ?? '');
    const { sql, bindings } = contactPageQuery(db, accountId, { search }, { page: 1, limit: 25 }).toSQL().toNative();
    ctx.body = { contacts: (await pool.query(sql, bindings as unknown[])).rows };
  });

  const listen = (app: Koa) => new Promise<number>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  const [oursPort, baselinePort] = await Promise.all([listen(ours), listen(baseline)]);
  console.log(JSON.stringify({ ours: `http://127.0.0.1:${oursPort}`, baseline: `http://127.0.0.1:${baselinePort}` }));
  process.on('SIGTERM', () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
