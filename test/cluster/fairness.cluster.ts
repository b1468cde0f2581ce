import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { bundleProbeWorkflow } from '../jobs/fairness/probeBundle';
import { load } from 'js-yaml';
import type { TemporalDeps } from '../../src/deps';
import { startJob, type StartedJob } from '../../src/temporal/jobs';
import { SYSTEM_ACCOUNT } from '../../src/temporal/searchAttributes';
import { createWorker } from '../../src/temporal/worker';
import { harness } from '../helpers/harness';
import { eventually } from '../jobs/jobTestKit';
import { fairnessProbeContract } from '../jobs/fairness/probeContract';

/*
 * The fairness and priority probe of test/jobs/fairness.test.ts on a real cluster, with the bound the shipped dynamic
 * config promises there: on the task queue it gives a single partition, a late account's job (or an interactive job
 * behind a backlog of sweeps) is one of the next two the server dispatches.
 *
 * A worker with ONE activity slot records the order its activities start in. The first flood activity holds the slot
 * until the late job's activity waits in the queue too, so the order does not depend on how fast the late job's
 * workflow task ran: when the slot frees, the server chooses among the rest of the flood and the late job.
 */

const FLOOD = 10;
const WORK_MS = 100;

type Setting = Array<{ value: unknown; constraints: { taskQueueName?: string } }>;
const SHIPPED = load(readFileSync(path.join(__dirname, '../../deploy/temporal/dynamicconfig.yaml'), 'utf8')) as Record<string, Setting>;
/** The queue the shipped dynamic config scopes its single partition to. */
const SINGLE_PARTITION_QUEUE = SHIPPED['matching.numTaskqueueReadPartitions'][0].constraints.taskQueueName!;

interface ProbeWorker {
  temporal: TemporalDeps;
  /** This run's labels in the order their activities started. */
  started: string[];
  /** Lets the first activity finish. */
  release(): void;
  stop(): Promise<void>;
}

let bundle: WorkflowBundleWithSourceMap;

async function startProbeWorker(run: string): Promise<ProbeWorker> {
  const h = harness();
  const started: string[] = [];
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const { worker, connection } = await createWorker({
    address: h.temporalAddress,
    security: h.temporalSecurity,
    namespace: h.deps.temporal.namespace,
    taskQueue: SINGLE_PARTITION_QUEUE,
    bundle,
    activities: {
      async probeWork(label: string) {
        // A probe left on the shared queue by an earlier run is not this run's to count.
        if (!label.startsWith(run)) return;
        started.push(label.slice(run.length));
        if (started.length === 1) await gate;
        await new Promise((resolve) => setTimeout(resolve, WORK_MS));
      },
    },
    maxConcurrentActivityTaskExecutions: 1,
  });
  const running = worker.run();
  return {
    temporal: { ...h.deps.temporal, taskQueue: SINGLE_PARTITION_QUEUE },
    started,
    release,
    async stop() {
      release();
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/**
 * Floods the queue with `flooder`'s jobs; once the worker holds the first of them, starts one job for `late` and waits
 * until its activity is queued behind the rest of the flood; then lets the worker go on. Answers the late job's position.
 */
async function floodThenOne(probe: ProbeWorker, run: string, flooder: string, late: string): Promise<number> {
  const start = (accountId: string, label: string): Promise<StartedJob<typeof fairnessProbeContract>> =>
    startJob(probe.temporal, harness().deps.metrics, fairnessProbeContract, {
      accountId,
      args: [`${run}${label}`],
      requestId: randomUUID(),
    });
  const flood: StartedJob<typeof fairnessProbeContract>[] = [];
  for (let i = 0; i < FLOOD; i++) flood.push(await start(flooder, `flood-${i}`));
  await eventually(
    async () => probe.started.length,
    (n) => n === 1,
    20_000,
    'the worker to take the first flood job',
  );
  const lateJob = await start(late, 'late');
  await eventually(
    async () => (await lateJob.handle.describe()).raw.pendingActivities?.length ?? 0,
    (n) => n > 0,
    20_000,
    "the late job's activity to be queued",
  );
  assert.equal(probe.started.length, 1, 'the worker held its only slot meanwhile');
  probe.release();
  await lateJob.handle.result();
  await Promise.all(flood.map((job) => job.handle.result()));
  return probe.started.indexOf('late');
}

describe(`job fairness and priority on the cluster (task queue ${SINGLE_PARTITION_QUEUE}, one partition)`, function () {
  this.timeout(120_000);
  let probe: ProbeWorker;
  let run: string;

  before(async () => {
    bundle = await bundleProbeWorkflow();
  });
  beforeEach(async () => {
    run = `${randomBytes(4).toString('hex')}:`;
    probe = await startProbeWorker(run);
  });
  afterEach(async () => probe.stop());

  it("an account's job queued behind another account's flood is one of the next two dispatched", async () => {
    const lateAt = await floodThenOne(probe, run, randomUUID(), randomUUID());
    assert.ok(
      lateAt === 1 || lateAt === 2,
      `the late account's job started at position ${lateAt} of ${FLOOD + 1}: ${probe.started.join(' ')}`,
    );
  });

  it('an interactive job queued behind a backlog of sweeps is one of the next two dispatched', async () => {
    const lateAt = await floodThenOne(probe, run, SYSTEM_ACCOUNT, randomUUID());
    assert.ok(
      lateAt === 1 || lateAt === 2,
      `the interactive job started at position ${lateAt} of ${FLOOD + 1}: ${probe.started.join(' ')}`,
    );
  });
});
