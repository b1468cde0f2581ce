import type { WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { createActivities } from '../../activities';
import type { Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { bundleWorkflows, createWorker } from '../../src/temporal/worker';
import type { BenchEnv } from './env';

export interface BenchWorker {
  stop(): Promise<void>;
}

let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

/**
 * The product's worker (the workflow bundle and `createActivities`) in the bench process, on `taskQueue`: the
 * scenarios whose work continues after the HTTP answer (webhook hand-off, backfill) run it to see that work done.
 * The bundle is built once per bench run.
 */
export async function startBenchWorker(env: BenchEnv, config: Config, taskQueue: string): Promise<BenchWorker> {
  bundle ??= bundleWorkflows();
  const { worker, connection } = await createWorker({
    address: env.temporal.address, namespace: env.temporal.namespace, taskQueue, bundle: await bundle,
    activities: createActivities({ config, db: env.db, logger: createLogger('warn') }),
  });
  const running = worker.run();
  return {
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
