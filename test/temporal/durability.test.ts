import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../src/app/activities';
import { progressQuery } from '../../workflows/progress.contract';
import { createWorker } from '../../src/temporal/worker';
import { harness } from '../helpers/harness';
import { eventually } from '../jobs/jobTestKit';
import { purgeIdempotencyKeysContract } from '../../workflows/purgeIdempotencyKeys.contract';
import { steppedJobContract } from '../workflows/steppedJob.contract';
import { quickJobContract } from '../workflows/quickJob.contract';

describe('workflow durability', () => {
  it('replaying recorded histories with the current bundle reproduces them (determinism guard)', async () => {
    const { client, taskQueue, bundle } = harness();
    const runs = [
      client.workflow.start(purgeIdempotencyKeysContract.workflowType, { taskQueue, workflowId: `replay-purge-${randomUUID()}`, args: [] }),
      client.workflow.start(steppedJobContract.workflowType, {
        taskQueue,
        workflowId: `replay-stepped-${randomUUID()}`,
        args: [{ steps: 3, stepMs: 50 }],
      }),
      client.workflow.start(quickJobContract.workflowType, {
        taskQueue,
        workflowId: `replay-quick-${randomUUID()}`,
        args: [{ value: 'x' }],
      }),
    ];
    const handles = await Promise.all(runs);
    await Promise.all(handles.map((h) => h.result()));
    const histories = await Promise.all(handles.map(async (h) => ({ workflowId: h.workflowId, history: await h.fetchHistory() })));

    const results = Worker.runReplayHistories({ workflowBundle: bundle }, histories);
    let replayed = 0;
    for await (const result of results) {
      assert.equal(result.error, undefined, `replay of ${result.workflowId} diverged: ${String(result.error)}`);
      replayed++;
    }
    assert.equal(replayed, 3);
  });

  it('a run interrupted when its worker stops finishes on a new worker with the same result', async () => {
    const { client, bundle, temporalAddress, deps } = harness();
    const taskQueue = `durability-${randomUUID()}`;
    const start = () =>
      createWorker({
        address: temporalAddress,
        namespace: deps.temporal.namespace,
        taskQueue,
        bundle,
        activities: createActivities({ config: deps.config, db: deps.db, logger: deps.logger }),
      });

    const first = await start();
    const firstRun = first.worker.run();
    const handle = await client.workflow.start(steppedJobContract.workflowType, {
      taskQueue,
      workflowId: `durable-${randomUUID()}`,
      args: [{ steps: 6, stepMs: 200 }],
    });
    const midway = await eventually(
      () => handle.query(progressQuery),
      (p) => p.done >= 2,
      15_000,
      'two steps done',
    );
    first.worker.shutdown();
    await firstRun;
    await first.connection.close();
    assert.ok(midway.done < 6, 'the worker stopped before the run finished');
    assert.equal((await handle.describe()).status.name, 'RUNNING');

    const second = await start();
    const result = await second.worker.runUntil(handle.result());
    await second.connection.close();
    assert.deepEqual(result, { steps: 6 });
  });
});
