import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { Pool } from 'undici';
import { JOB_START_PATH } from '../routes/jobStart';
import { benchTrivialContract } from '../workflows/benchTrivial.contract';
import { sampleLoad, type Samples } from './load';

/** Job starts of the cluster scenario: raw SDK starts and starts through the bench job route, then their completion. */

export interface StartLoad {
  /** Starts measured: at most this many, for at most durationMs. */
  count: number;
  durationMs: number;
  concurrency: number;
  warmup: number;
}

const loadOptions = (load: StartLoad) => ({
  concurrency: load.concurrency,
  maxOperations: load.count,
  durationMs: load.durationMs,
  warmupOperations: load.warmup,
});

/** client.workflow.start of the trivial workflow, nothing else: the floor of a job start. */
export function rawStarts(client: Client, taskQueue: string, load: StartLoad): Promise<Samples> {
  return sampleLoad(async () => {
    await client.workflow.start(benchTrivialContract.workflowType, { workflowId: `raw-${randomUUID()}`, taskQueue, args: [] });
  }, loadOptions(load));
}

/** POST /api/bench/jobs with a session token: our route layer and job helper start the same workflow. */
export async function apiStarts(baseUrl: string, token: string, load: StartLoad): Promise<Samples> {
  const http = new Pool(baseUrl, { connections: load.concurrency });
  const headers = { authorization: `Bearer ${token}` };
  try {
    return await sampleLoad(async () => {
      const res = await http.request({ method: 'POST', path: JOB_START_PATH, headers });
      const text = await res.body.text();
      if (res.statusCode !== 202) throw new Error(`status ${res.statusCode}: ${text}`);
    }, loadOptions(load));
  } finally {
    await http.close();
  }
}

export interface Completion {
  completed: number;
  ms: number;
  stalled: boolean;
}

/**
 * Waits until `expected` trivial workflows on the task queue have completed (visibility's count), or until the count
 * has not moved for `stallMs`.
 */
export async function completedTrivial(client: Client, taskQueue: string, expected: number, stallMs = 30_000): Promise<Completion> {
  const query = `TaskQueue = '${taskQueue}' AND WorkflowType = '${benchTrivialContract.workflowType}' AND ExecutionStatus = 'Completed'`;
  const started = performance.now();
  let last = -1;
  let movedAt = started;
  for (;;) {
    const { count } = await client.workflow.count(query);
    if (count !== last) movedAt = performance.now();
    last = count;
    const stalled = performance.now() - movedAt > stallMs;
    if (count >= expected || stalled) return { completed: count, ms: performance.now() - started, stalled };
    await sleep(200);
  }
}
