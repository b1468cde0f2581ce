import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { bundleProbeWorkflow } from './fairness/probeBundle';
import type { TemporalDeps } from '../../src/deps';
import { INTERACTIVE_PRIORITY, SWEEP_PRIORITY } from '../../src/temporal/jobPriority';
import { startJob, type StartedJob } from '../../src/temporal/jobs';
import { SYSTEM_ACCOUNT } from '../../src/temporal/searchAttributes';
import { harness } from '../helpers/harness';
import { fairnessProbeContract } from './fairness/probeContract';

/*
 * A worker with ONE activity slot on a task queue of its own: every probe job's activity waits in the queue's backlog,
 * and the order the worker receives them is the order the server dispatched them. The test records that order, so it
 * does not depend on timing: FIFO dispatch would hand out all of the flood before the late job; fair (or prioritized)
 * dispatch hands the late job out within the next couple of dispatches.
 */

const FLOOD = 10;
const WORK_MS = 150;

interface ProbeWorker {
  temporal: TemporalDeps;
  /** Labels in the order their activities started. */
  started: string[];
  stop(): Promise<void>;
}

let bundle: WorkflowBundleWithSourceMap;

async function startProbeWorker(): Promise<ProbeWorker> {
  const h = harness();
  const taskQueue = `fairness-${randomBytes(4).toString('hex')}`;
  const started: string[] = [];
  const connection = await NativeConnection.connect({ address: h.temporalAddress });
  const worker = await Worker.create({
    connection,
    namespace: h.deps.temporal.namespace,
    taskQueue,
    workflowBundle: bundle,
    activities: {
      async probeWork(label: string) {
        started.push(label);
        await new Promise((resolve) => setTimeout(resolve, WORK_MS));
      },
    },
    maxConcurrentActivityTaskExecutions: 1,
  });
  const running = worker.run();
  return {
    temporal: { ...h.deps.temporal, taskQueue },
    started,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

function startProbe(probe: ProbeWorker, accountId: string, label: string): Promise<StartedJob<typeof fairnessProbeContract>> {
  return startJob(probe.temporal, harness().deps.metrics, fairnessProbeContract, {
    accountId,
    args: [label],
    requestId: randomUUID(),
  });
}

/** Floods the queue with `flooder`'s jobs, waits until the worker is busy on them, then starts one job for `late`. */
async function floodThenOne(probe: ProbeWorker, flooder: string, late: string): Promise<{ lateAt: number; result: string }> {
  const flood: StartedJob<typeof fairnessProbeContract>[] = [];
  for (let i = 0; i < FLOOD; i++) flood.push(await startProbe(probe, flooder, `flood-${i}`));
  const deadline = Date.now() + 10_000;
  while (probe.started.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  const lateJob = await startProbe(probe, late, 'late');
  const result = await lateJob.handle.result();
  await Promise.all(flood.map((job) => job.handle.result()));
  return { lateAt: probe.started.indexOf('late'), result };
}

describe('job fairness and priority (task-queue priority and fairness on the dev server)', function () {
  this.timeout(120_000);
  let probe: ProbeWorker;

  before(async () => {
    bundle = await bundleProbeWorkflow();
  });
  beforeEach(async () => (probe = await startProbeWorker()));
  afterEach(async () => probe.stop());

  it("an account's job is not starved by another account's flood: it runs before half of the flood has", async () => {
    const flooder = randomUUID();
    const { lateAt, result } = await floodThenOne(probe, flooder, randomUUID());
    assert.equal(result, 'late');
    assert.ok(
      lateAt >= 0 && lateAt <= FLOOD / 2,
      `the late account's job started at position ${lateAt} of ${FLOOD + 1}: ${probe.started.join(' ')}`,
    );
  });

  it('an interactive job outranks a backlog of sweeps', async () => {
    const { lateAt } = await floodThenOne(probe, SYSTEM_ACCOUNT, randomUUID());
    assert.ok(lateAt >= 0 && lateAt <= 2, `the interactive job started at position ${lateAt} of ${FLOOD + 1}: ${probe.started.join(' ')}`);
  });

  it('jobs carry their priority: interactive for an account, sweep for _system, the account as fairness key', async () => {
    const account = randomUUID();
    const [interactive, sweep] = await Promise.all([startProbe(probe, account, 'one'), startProbe(probe, SYSTEM_ACCOUNT, 'two')]);
    const [a, b] = await Promise.all([interactive.handle.describe(), sweep.handle.describe()]);
    assert.equal(a.raw.workflowExecutionInfo?.priority?.priorityKey, INTERACTIVE_PRIORITY);
    assert.equal(a.raw.workflowExecutionInfo?.priority?.fairnessKey, account);
    assert.equal(b.raw.workflowExecutionInfo?.priority?.priorityKey, SWEEP_PRIORITY);
    await Promise.all([interactive.handle.result(), sweep.handle.result()]);
  });
});
