import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { JobIndexWatcher } from '../../src/jobs/jobIndexWatcher';
import { jobSearchAttributes, startJob } from '../../src/temporal/jobs';
import type { TestAccount } from '../helpers/accounts';
import { Receiver, verifyStandardWebhook } from '../email/webhooks/receiver';
import { createEndpoint, deliveryResult, eventOf, useAlertWorld, waitFor, type AlertWorld } from '../alerts/fixtures';
import { harness } from '../helpers/harness';
import { steppedJobContract } from '../workflows/steppedJob.contract';

/** Jobs the Temporal server closes (terminations, timeouts) run no workflow code at their close: a watcher reports them. */
describe('job.failed for jobs the server closed (terminated, timed out)', function () {
  this.timeout(60_000);
  let world: AlertWorld;
  let receiver: Receiver;
  let account: TestAccount;
  useAlertWorld('Server Closes Co', (test) => ({ world, receiver, account } = test));

  /** Passes of the watcher until one records the run's event (visibility lags a moment behind the close). */
  const watchUntilRecorded = async (watcher: JobIndexWatcher, type = 'job.failed') => {
    await waitFor(
      async () => {
        await watcher.dispatchOnce();
        return harness().db('alert_events').where({ account_id: account.accountId, type });
      },
      (rows) => rows.length > 0,
      15_000,
      'the watcher recorded the event',
    );
    return eventOf(account.accountId, type);
  };

  it('a terminated job sends job.failed with status terminated and code job_terminated, once however often it is seen', async () => {
    const hook = await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['job.failed'] });
    const { id: jobId, handle } = await startJob(world.deps.temporal, world.deps.metrics, steppedJobContract, {
      accountId: account.accountId,
      args: [{ steps: 100, stepMs: 1_000 }],
      requestId: 'server-closes-test',
    });
    await handle.terminate('an operator stopped it');
    const watcher = new JobIndexWatcher(world.deps);
    const event = await watchUntilRecorded(watcher);
    await watcher.dispatchOnce(); // seen again: recorded once per run
    await new JobIndexWatcher(world.deps).dispatchOnce(); // another replica: the same

    const result = await deliveryResult(event.id);
    assert.deepEqual(
      result.deliveries.map((d) => [d.endpoint_id, d.status]),
      [[hook.id, 'delivered']],
    );
    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received;
    assert.ok(verifyStandardWebhook(hook.secret, request.headers, request.body));
    const body = JSON.parse(request.body.toString('utf8'));
    assert.equal(body.type, 'job.failed');
    assert.equal(body.data.job.id, jobId);
    assert.equal(body.data.job.status, 'terminated');
    assert.deepEqual(body.data.error, { code: 'job_terminated', message: 'the job was terminated' });
    assert.ok(!request.body.toString('utf8').includes('an operator stopped it'), 'the termination reason stays with the operators');
    assert.equal((await harness().db('alert_events').where({ account_id: account.accountId, type: 'job.failed' })).length, 1);
  });

  it('a job past its execution timeout sends job.failed with status timed_out and code job_timed_out', async () => {
    await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['job.failed'] });
    const id = `${steppedJobContract.jobKind}:${account.accountId}:${randomUUID()}`;
    const handle = await world.deps.temporal.client.workflow.start(steppedJobContract.workflowType, {
      workflowId: id,
      taskQueue: world.deps.temporal.taskQueue,
      args: [{ steps: 100, stepMs: 1_000 }],
      workflowExecutionTimeout: '1 second',
      typedSearchAttributes: jobSearchAttributes(steppedJobContract.jobKind, account.accountId),
    });
    await assert.rejects(handle.result());
    const event = await watchUntilRecorded(new JobIndexWatcher(world.deps));
    assert.equal((event.data.job as { status: string }).status, 'timed_out');
    assert.deepEqual(event.data.error, { code: 'job_timed_out', message: 'the job ran past its time limit' });
  });

  it('a terminated job of an account without a job.failed endpoint records nothing', async () => {
    await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['job.completed'] });
    const { id } = await startJob(world.deps.temporal, world.deps.metrics, steppedJobContract, {
      accountId: account.accountId,
      args: [{ steps: 100, stepMs: 1_000 }],
      requestId: 'server-closes-test',
    });
    await harness().client.workflow.getHandle(id).terminate();
    const { client } = harness();
    await waitFor(
      () => client.workflow.count(`WorkflowId = '${id}' AND ExecutionStatus = 'Terminated'`),
      (found) => found.count === 1,
      15_000,
      'the terminated run in visibility',
    );
    const pass = await new JobIndexWatcher(world.deps).dispatchOnce();
    assert.ok(pass.dispatched >= 1, JSON.stringify(pass));
    assert.equal((await harness().db('alert_events').where({ account_id: account.accountId })).length, 0);
  });
});
