// Child process of the site-op scenario: our API (the whole app, as benchServers.ts builds it) and, beside it for
// context, a bare Koa relay that forwards the same platform call, so the cost of the extra HTTP hop shows apart from
// the cost of our pipeline. The parent is the load generator; the simulator is a third process.
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { request } from 'undici';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/knex';
import { createApp } from '../../src/app/app';
import { createMetrics } from '../../src/http/metrics';
import { createLogger } from '../../src/logger';
import { connectTemporal } from '../../src/temporal/client';
import { installCostProbe } from './costProbe';

const POOL = 10;

/** GET /<platform path>?<query> → the same GET on the simulator with the relay's token; the body is passed through. */
function relay(apiUrl: string, token: string): Koa {
  const app = new Koa();
  app.use(async (ctx) => {
    const res = await request(`${apiUrl}/v2${ctx.path}${ctx.search}`, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    ctx.status = res.statusCode;
    ctx.type = 'application/json';
    ctx.body = await res.body.text();
  });
  return app;
}

async function main() {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const db = createDb(config.DATABASE_URL!, POOL);
  // Statements our API sent, by SQL text: SIGUSR2 prints them and starts counting again (round trips per request).
  const statements = new Map<string, number>();
  db.on('query', (q: { sql: string }) => statements.set(q.sql, (statements.get(q.sql) ?? 0) + 1));
  const client = await connectTemporal(config.TEMPORAL_ADDRESS!, config.TEMPORAL_NAMESPACE);
  const ours = createApp({
    config,
    db,
    logger: createLogger('warn'),
    metrics: createMetrics(false),
    schedules: [],
    temporal: { client, namespace: config.TEMPORAL_NAMESPACE, taskQueue: config.TEMPORAL_TASK_QUEUE },
    secretHashKey: config.SECRET_HASH_KEY!,
  });
  const bare = relay(config.SITE_PLATFORM_API_URL, process.env.BENCH_RELAY_TOKEN!);
  installCostProbe(db, { ours, relay: bare });
  const listen = (app: Koa) =>
    new Promise<number>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const [oursPort, relayPort] = await Promise.all([listen(ours), listen(bare)]);
  console.log(JSON.stringify({ ours: `http://127.0.0.1:${oursPort}`, relay: `http://127.0.0.1:${relayPort}` }));
  // …and the process's CPU time (user + system) since the last SIGUSR2, so each round's side gets its own.
  let cpu = process.cpuUsage();
  process.on('SIGUSR2', () => {
    const spent = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    console.log(JSON.stringify({ statements: Object.fromEntries(statements), cpuMicros: spent.user + spent.system }));
    statements.clear();
  });
  process.on('SIGTERM', () => process.exit(0));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
