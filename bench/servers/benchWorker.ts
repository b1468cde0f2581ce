// Child process of a bench scenario: the product's worker (workflow bundle + createActivities) on its own event
// loop, as production runs it (`npm run cli -- worker`), so neither the load generator nor the API shares it.
import path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createActivities } from '../../src/app/activities';
import { attemptDeliveries } from '../../src/email/send/attempt';
import type { DeliveryAttemptInput } from '../../workflows/emailDelivery.contract';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/knex';
import { createLogger } from '../../src/logger';
import { loadTemporalConnectionSettings } from '../../src/temporal/connectionConfig';
import { bundleWorkflows, createWorker } from '../../src/temporal/worker';

// BENCH_WORKFLOWS=1 adds the bench-only workflows (bench/workflows) to the product's. BENCH_UNSIGNED=1 delivers email
// without DKIM signing: the email-live-send baseline (the product always signs).
const BENCH_WORKFLOWS_PATH = path.join(__dirname, '../workflows/index.ts');

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const db = createDb(config.DATABASE_URL!, 10);
  const { worker, connection } = await createWorker({
    address: config.TEMPORAL_ADDRESS!,
    security: loadTemporalConnectionSettings(process.env).security,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    bundle: await bundleWorkflows(process.env.BENCH_WORKFLOWS === '1' ? BENCH_WORKFLOWS_PATH : undefined),
    activities: {
      ...createActivities({ config, db, logger: createLogger('warn') }),
      ...(process.env.BENCH_UNSIGNED === '1'
        ? { attemptEmailDeliveries: (input: DeliveryAttemptInput) => attemptDeliveries({ db, config }, input) }
        : {}),
    },
  });
  const running = worker.run();
  process.on('SIGTERM', () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
  });
  console.log('ready');
  await running;
  await connection.close();
  await db.destroy();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
