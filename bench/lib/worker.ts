import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BenchEnv } from './env';

export interface BenchWorker {
  /** The worker's process. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * The product's worker in a child process on `taskQueue` (see bench/servers/benchWorker.ts): the scenarios whose
 * work continues after the HTTP answer (webhook hand-off, backfill) run it to see that work done. A process of its
 * own, as in production, so the load generator's event loop never waits on workflow activations.
 */
export async function startBenchWorker(env: BenchEnv, taskQueue: string, extraEnv: Record<string, string> = {}): Promise<BenchWorker> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../servers/benchWorker.ts')], {
    env: {
      ...process.env,
      DATABASE_URL: env.databaseUrl,
      TEMPORAL_ADDRESS: env.temporal.address,
      TEMPORAL_NAMESPACE: env.temporal.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [line] = (await Promise.race([
    once(createInterface({ input: child.stdout! }), 'line'),
    exited.then(([code]) => {
      throw new Error(`the bench worker exited with ${code} before it was ready`);
    }),
  ])) as [string];
  if (line !== 'ready') throw new Error(`the bench worker said ${line}`);
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
