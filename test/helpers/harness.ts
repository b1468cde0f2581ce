import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { DefaultLogger, type Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../../src/config';
import { createDb, migrateLatest, type Knex } from '../../src/db/knex';
import type { AppDeps } from '../../src/deps';
import { startTemporalDevServer, type DevServer } from '../../src/dev/temporalDevServer';
import { connectTemporalChecked, temporalSettingsOf } from '../../src/runtime/temporal';
import { TemporalSecurity } from '../../src/temporal/connectionConfig';
import { DeliveryDispatcher } from '../../src/commerce/webhooks/dispatcher';
import { closeAgentKeyCaches } from '../../src/auth/agentKeyRuntime';
import { closeEmailRuntimes } from '../../src/email/keys/runtime';
import { closeTurnWakeups } from '../../src/marketing/ai/turnWakeups';
import { createApp } from '../../src/app/app';
import { jobIndexRecorder } from '../../src/jobs/jobIndexWrites';
import { createMetrics } from '../../src/http/metrics';
import { installRuntimeWithMetrics } from '../../src/telemetry/metricsTemporal';
import { createLogger } from '../../src/logger';
import { connectTemporal } from '../../src/temporal/client';
import { bundleWorkflows, createWorker } from '../../src/temporal/worker';
import { createActivities } from '../../src/app/activities';
import { createScratchDatabase, type ScratchDatabase } from '../../src/dev/scratchDatabase';
import { testRoutes } from './testRoutes';
import { testSchedules } from './testSchedules';

export interface Harness {
  deps: AppDeps;
  db: Knex;
  client: Client;
  baseUrl: string;
  temporalAddress: string;
  /** TLS and API key of `temporalAddress` (plain for the dev server): what a test's own worker or client connects with. */
  temporalSecurity: TemporalSecurity;
  taskQueue: string;
  worker: Worker;
  /** The test worker's workflow bundle (product and test workflows), for replay tests and extra workers. */
  bundle: WorkflowBundleWithSourceMap;
  /** URL of the run's fresh database, for tests that start the CLI as a child process. */
  databaseUrl: string;
  /** The app's commerce webhook relay (as startApi runs it); tests may stop and start it. */
  dispatcher: DeliveryDispatcher;
}

let current: Harness | undefined;
const cleanups: Array<() => Promise<unknown>> = [];

export function harness(): Harness {
  if (!current) throw new Error('the test harness is not started (test/helpers/rootHooks.ts)');
  return current;
}

export const TEST_WORKFLOWS_PATH = path.resolve(__dirname, '../workflows/index.ts');

/**
 * The run's Temporal: the server TEMPORAL_ADDRESS names when it is set (the cluster suite, `npm run test:cluster`),
 * else a fresh dev server. The first is connected to as the app connects (TLS settings included) and is left running.
 */
async function runTemporal(env: NodeJS.ProcessEnv): Promise<RunTemporal> {
  // Port 0: any free port, so that the shards of one run (test/runner/run.cjs) never race for 7233.
  if (!env.TEMPORAL_ADDRESS) return { ...(await startTemporalDevServer({ port: 0 })), security: new TemporalSecurity(), external: false };
  const { address, namespace, security } = temporalSettingsOf(env);
  return { address: address!, namespace, security, external: true, stop: async () => undefined };
}

interface RunTemporal extends DevServer {
  security: TemporalSecurity;
  external: boolean;
}

/**
 * Real Postgres (fresh database), real Temporal (a dev server, or TEMPORAL_ADDRESS's server), a real worker and the
 * real app on a loopback port.
 */
export async function startHarness(): Promise<Harness> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SECRET_HASH_KEY: randomBytes(32).toString('hex'),
    CRON_SECRET: randomBytes(32).toString('hex'),
    AGENT_SECRET: randomBytes(32).toString('hex'),
    COMMERCE_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  const logger = createLogger(config.LOG_LEVEL);
  // Tests fail workflows on purpose: their WARN lines are noise. Metrics as in production (the app's /metrics shows them).
  await installRuntimeWithMetrics({ logger: new DefaultLogger('ERROR') });

  const [database, temporal, bundle]: [ScratchDatabase, RunTemporal, Awaited<ReturnType<typeof bundleWorkflows>>] = await Promise.all([
    createScratchDatabase(),
    runTemporal(process.env),
    bundleWorkflows(TEST_WORKFLOWS_PATH, { cache: true }),
  ]);
  cleanups.push(
    () => temporal.stop(),
    () => database.drop(),
  );

  const db = createDb(database.url, 10);
  cleanups.unshift(() => db.destroy());
  await migrateLatest(db);

  // An external server must have the namespace and search attributes the app checks for (`temporal setup`).
  const client = temporal.external ? await connectTemporalChecked(temporal) : await connectTemporal(temporal.address, temporal.namespace);
  cleanups.unshift(() => client.connection.close());
  const taskQueue = `test-${randomBytes(4).toString('hex')}`;
  const { worker, connection } = await createWorker({
    address: temporal.address,
    security: temporal.security,
    namespace: temporal.namespace,
    taskQueue,
    bundle,
    activities: createActivities({ config, db, logger }),
  });
  const running = worker.run();
  cleanups.unshift(async () => {
    worker.shutdown();
    await running;
    await connection.close();
  });

  const deps: AppDeps = {
    config,
    logger,
    db,
    temporal: {
      client,
      namespace: temporal.namespace,
      taskQueue,
      uiUrl: 'http://temporal-ui.test',
      jobIndex: jobIndexRecorder(db, logger),
    },
    schedules: testSchedules(),
    metrics: createMetrics(false),
    secretHashKey: config.SECRET_HASH_KEY!,
  };
  const server: Server = createApp(deps, testRoutes()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  cleanups.unshift(() => new Promise((resolve) => server.close(resolve)));
  const dispatcher = new DeliveryDispatcher(deps).start();
  cleanups.unshift(() => dispatcher.stop());
  cleanups.unshift(() => closeEmailRuntimes());
  cleanups.unshift(() => closeAgentKeyCaches());
  cleanups.unshift(() => closeTurnWakeups());
  const { port } = server.address() as AddressInfo;
  // Webhook and callback URLs point back at this app, as PUBLIC_APP_URL does in production.
  config.PUBLIC_APP_URL = `http://127.0.0.1:${port}`;

  current = {
    deps,
    db,
    client,
    baseUrl: `http://127.0.0.1:${port}`,
    temporalAddress: temporal.address,
    temporalSecurity: temporal.security,
    taskQueue,
    worker,
    bundle,
    databaseUrl: database.url,
    dispatcher,
  };
  return current;
}

export async function stopHarness(): Promise<void> {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch((err) => console.error('cleanup failed:', err));
  current = undefined;
}
