// A worker of the product's activities in a process of its own, for the kill-the-worker test (resume.test.ts).
// Env: DATABASE_URL, TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, RESEARCH_TASK_QUEUE, RESEARCH_BUNDLE_PATH (a workflow
// bundle written by the test) and RESEARCH_CONFIG (JSON of config overrides: the simulators' URLs and keys).
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createActivities } from '../../src/app/activities';
import { loadConfig, type Config } from '../../src/config';
import { createDb } from '../../src/db/knex';
import { createLogger } from '../../src/logger';
import { createWorker } from '../../src/temporal/worker';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const config: Config = { ...loadConfig(process.env), ...JSON.parse(process.env.RESEARCH_CONFIG ?? '{}') };
  const db = createDb(process.env.DATABASE_URL!, 5);
  const { worker } = await createWorker({
    address: process.env.TEMPORAL_ADDRESS!,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: process.env.RESEARCH_TASK_QUEUE!,
    bundle: { codePath: process.env.RESEARCH_BUNDLE_PATH! },
    activities: createActivities({ config, db, logger: createLogger('silent') }),
  });
  console.log('research worker ready');
  await worker.run();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
