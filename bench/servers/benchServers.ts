// Child process of a bench scenario: our API and a bare baseline side by side in one process,
// so the load generator (the parent) never shares their event loop.
import type { AddressInfo } from 'node:net';
import Koa, { type Middleware } from 'koa';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import { createDb, type Knex } from '../../src/db/knex';
import { DeliveryDispatcher } from '../../src/commerce/webhooks/dispatcher';
import { createApp } from '../../src/app/app';
import { createMetrics } from '../../src/http/metrics';
import { createLogger } from '../../src/logger';
import { connectTemporal } from '../../src/temporal/client';
import { loadTemporalConnectionSettings } from '../../src/temporal/connectionConfig';
import { jobIndexRecorder } from '../../src/jobs/jobIndexWrites';
import { commerceWebhookBaseline } from '../baselines/commerceWebhook';
import { contentListBaseline } from '../baselines/contentList';
import { crmSearchBaseline } from '../baselines/crmSearch';
import { emailSendBaseline } from '../baselines/emailSend';
import { emailSendFloorBaseline } from '../baselines/emailSendFloor';
import { routeFloorBaseline } from '../baselines/routeFloor';
import { siteWebhookBaseline } from '../baselines/siteWebhook';
import { viewsBatchBaseline } from '../baselines/viewsBatch';
import { installCostProbe } from '../lib/costProbe';
import { benchNoopRoute } from '../routes/noop';
import { benchJobStartRoute } from '../routes/jobStart';
import { writeStatsOnSignal } from '../lib/statementStats';
import { SiteEventRelay } from '../../src/sitePlatform/webhooks/relay';

const POOL = 10;

const BASELINES: Record<string, (db: Knex, pool: pg.Pool, accountId: string) => Middleware> = {
  'crm-search': crmSearchBaseline,
  'content-list': contentListBaseline,
  'commerce-webhook': commerceWebhookBaseline,
  // `/floor`, `/floor-cpu`: the same work as a test-key send, bare, with and without its suppression SELECT (context).
  'email-send': (_db, pool) => {
    const floors: Record<string, Middleware> = {
      '/floor': emailSendFloorBaseline(pool, { suppressionSelect: true }),
      '/floor-cpu': emailSendFloorBaseline(pool, { suppressionSelect: false }),
    };
    const bare = emailSendBaseline();
    return (ctx, next) => (floors[ctx.path] ?? bare)(ctx, next);
  },
  'site-webhook': siteWebhookBaseline,
  'views-batch': () => viewsBatchBaseline(),
  'route-floor': routeFloorBaseline,
};

async function main() {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const baselineOf = BASELINES[process.env.BENCH_BASELINE ?? ''];
  if (!baselineOf) throw new Error(`BENCH_BASELINE must be one of ${Object.keys(BASELINES).join(', ')}`);
  const db = createDb(config.DATABASE_URL!, POOL);
  // BENCH_STATS_FILE: SIGUSR2 writes there the statements sent and the CPU used since the last one (email scenarios).
  if (process.env.BENCH_STATS_FILE) writeStatsOnSignal(db, process.env.BENCH_STATS_FILE);
  // TLS settings (TEMPORAL_TLS_*) as the product reads them: the cluster scenario's servers connect to a TLS frontend.
  const { security } = loadTemporalConnectionSettings(process.env);
  const client = await connectTemporal(config.TEMPORAL_ADDRESS!, config.TEMPORAL_NAMESPACE, security);
  const logger = createLogger('warn');
  // BENCH_JOB_ROUTE=1 mounts the bench job-start route, with the job index record the API makes of each start.
  const jobRoute = process.env.BENCH_JOB_ROUTE === '1';
  const deps = {
    config,
    db,
    logger,
    metrics: createMetrics(false),
    schedules: [],
    temporal: {
      client,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      ...(jobRoute ? { jobIndex: jobIndexRecorder(db, logger) } : {}),
    },
    secretHashKey: config.SECRET_HASH_KEY!,
  };
  // route-floor mounts a bench-only no-op route through the real route layer (createApp's extra routes).
  const ours = createApp(deps, [
    ...(process.env.BENCH_BASELINE === 'route-floor' ? [benchNoopRoute()] : []),
    ...(jobRoute ? [benchJobStartRoute()] : []),
  ]);
  // As startApi does: the app's process runs the commerce webhook relay and the site-platform event relay.
  new DeliveryDispatcher(deps).start();
  new SiteEventRelay(deps).start();
  const baseline = new Koa();
  baseline.use(baselineOf(db, new pg.Pool({ connectionString: config.DATABASE_URL, max: POOL }), process.env.BENCH_ACCOUNT_ID!));
  installCostProbe(db, { ours, baseline });

  const listen = (app: Koa) =>
    new Promise<number>((resolve) => {
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
