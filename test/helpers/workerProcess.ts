import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createActivities } from '../../src/app/activities';
import type { Config } from '../../src/config';
import { createWorker } from '../../src/temporal/worker';
import { eventually } from '../jobs/jobTestKit';
import { childEnv, REPO_ROOT, tempDir } from '../runtime/child';
import { harness } from './harness';

// A worker of every product activity in a process of its own (test/research/workerChild.ts), for the kill-the-worker
// tests: it is started, killed with SIGKILL mid-run, and replaced by a worker in this process.

const CHILD = path.join(REPO_ROOT, 'test/research/workerChild.ts');

export interface WorkerChild {
  child: ChildProcess;
  output(): string;
  exited: Promise<void>;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
}

/** Starts the worker child on `taskQueue` with the harness's servers and `config` on top of its own; resolves once it is ready. */
export async function startWorkerChild(taskQueue: string, config: Partial<Config>): Promise<WorkerChild> {
  const h = harness();
  const bundlePath = path.join(await tempDir('wy-worker-'), 'workflows.js');
  await writeFile(bundlePath, h.bundle.code);
  const env = childEnv({
    DATABASE_URL: h.databaseUrl,
    TEMPORAL_ADDRESS: h.temporalAddress,
    TEMPORAL_NAMESPACE: h.deps.temporal.namespace,
    RESEARCH_TASK_QUEUE: taskQueue,
    RESEARCH_BUNDLE_PATH: bundlePath,
    // The harness's key: the child unseals what the harness sealed (DKIM signing keys).
    RESEARCH_CONFIG: JSON.stringify({ SECRET_HASH_KEY: h.deps.secretHashKey, ...config }),
    LOG_LEVEL: 'error',
  });
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(
    async () => output,
    (out) => out.includes('worker ready') || child.exitCode !== null,
    60_000,
    'the worker child',
  );
  assert.ok(output.includes('worker ready'), output);
  return {
    child,
    output: () => output,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A worker in this process on `taskQueue` with `config` on top of the harness's: the killed child's replacement. */
export async function startReplacementWorker(taskQueue: string, config: Partial<Config>): Promise<{ stop(): Promise<void> }> {
  const h = harness();
  const { worker, connection } = await createWorker({
    address: h.temporalAddress,
    security: h.temporalSecurity,
    namespace: h.deps.temporal.namespace,
    taskQueue,
    bundle: h.bundle,
    activities: createActivities({ config: { ...h.deps.config, ...config }, db: h.db, logger: h.deps.logger }),
  });
  const run = worker.run();
  return {
    async stop() {
      worker.shutdown();
      await run;
      await connection.close();
    },
  };
}

/** A worker of the product's activities in this process on a task queue of its own, with `config` on top of the harness's. */
export async function startTestWorker(
  prefix: string,
  config: Partial<Config>,
): Promise<{ taskQueue: string; config: Config; stop(): Promise<void> }> {
  const taskQueue = `${prefix}-${randomBytes(4).toString('hex')}`;
  const worker = await startReplacementWorker(taskQueue, config);
  return { taskQueue, config: { ...harness().deps.config, ...config }, stop: () => worker.stop() };
}
