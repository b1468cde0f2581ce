import assert from 'node:assert/strict';
import { recordJobClosed } from '../../src/alerts/service';
import { startJob } from '../../src/temporal/jobs';
import type { TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { Receiver, verifyStandardWebhook } from '../email/webhooks/receiver';
import { failingJobContract } from '../workflows/failingJob.contract';
import { quickJobContract } from '../workflows/quickJob.contract';
import { createEndpoint, deliveriesOf, deliveryResult, eventOf, useAlertWorld, type AlertWorld } from './fixtures';

describe('job alerts (job.completed, job.failed)', function () {
  this.timeout(60_000);
  let world: AlertWorld;
  let receiver: Receiver;
  let account: TestAccount;
  useAlertWorld('Alerts Co', (test) => ({ world, receiver, account } = test));

  const start = <C extends typeof failingJobContract | typeof quickJobContract>(
    contract: C,
    args: Parameters<typeof startJob<C>>[3]['args'],
    memo?: Record<string, unknown>,
  ) => startJob(world.deps.temporal, world.deps.metrics, contract, { accountId: account.accountId, args, requestId: 'alerts-test', memo });

  it('a job that fails sends a signed job.failed event to the subscribed endpoint, verified with the Standard Webhooks reference check', async () => {
    const hook = await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['job.failed'] });
    const { id: jobId, handle } = await start(failingJobContract, [{ code: 'source_unreadable', message: 'the source could not be read' }]);
    await assert.rejects(handle.result());
    const event = await eventOf(account.accountId, 'job.failed');
    const result = await deliveryResult(event.id);
    assert.deepEqual(
      result.deliveries.map((d) => [d.endpoint_id, d.status, d.attempts]),
      [[hook.id, 'delivered', 1]],
    );

    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received;
    assert.equal(request.headers['webhook-id'], event.id);
    assert.ok(
      verifyStandardWebhook(hook.secret, request.headers, request.body),
      'the signature verifies with the secret shown at creation',
    );
    const body = JSON.parse(request.body.toString('utf8'));
    assert.equal(body.type, 'job.failed');
    const description = await handle.describe();
    assert.deepEqual(body.data.job, {
      id: jobId,
      kind: 'test_failing',
      status: 'failed',
      run_id: description.runId,
      created_at: body.data.job.created_at,
      closed_at: body.data.job.closed_at,
    });
    assert.ok(Date.parse(body.data.job.created_at) <= Date.parse(body.data.job.closed_at));
    assert.deepEqual(body.data.error, { code: 'source_unreadable', message: 'the source could not be read' });

    const log = await deliveriesOf(world.app, account.ownerToken, hook.id);
    assert.deepEqual(
      log.body.data.map((d: Record<string, unknown>) => [d.event_id, d.event_type, d.status, d.attempts, d.last_status]),
      [[event.id, 'job.failed', 'delivered', 1, 200]],
    );
  });

  it('a failure without a stable code is reported as job_failed with a generic message (internals never leave)', async () => {
    await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['job.failed'] });
    const { handle } = await start(failingJobContract, [{ code: null, message: 'connection to 10.0.0.7:5432 refused' }]);
    await assert.rejects(handle.result());
    const event = await eventOf(account.accountId, 'job.failed');
    await deliveryResult(event.id);
    const body = JSON.parse(receiver.received[0].body.toString('utf8'));
    assert.deepEqual(body.data.error, { code: 'job_failed', message: 'the job failed' });
    assert.ok(!receiver.received[0].body.includes('10.0.0.7'));
  });

  it('a completed job sends job.completed with its result, and only to endpoints subscribed to job.completed', async () => {
    const failedOnly = await Receiver.start();
    try {
      await createEndpoint(world.app, account.ownerToken, { url: failedOnly.url, events: ['job.failed'] });
      const hook = await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['job.completed', 'job.failed'] });
      const { handle } = await start(quickJobContract, [{ value: 'done' }]);
      const jobResult = await handle.result();
      const event = await eventOf(account.accountId, 'job.completed');
      const result = await deliveryResult(event.id);
      assert.deepEqual(
        result.deliveries.map((d) => [d.endpoint_id, d.status]),
        [[hook.id, 'delivered']],
      );
      const body = JSON.parse(receiver.received[0].body.toString('utf8'));
      assert.equal(body.type, 'job.completed');
      assert.equal(body.data.job.status, 'completed');
      assert.deepEqual(body.data.result, jobResult);
      assert.ok(verifyStandardWebhook(hook.secret, receiver.received[0].headers, receiver.received[0].body));
      assert.equal(failedOnly.received.length, 0);
    } finally {
      await failedOnly.close();
    }
  });

  it("a retried recordJobClosed (the activity's answer was lost) records the job's event once", async () => {
    await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['job.completed'] });
    const input = {
      accountId: account.accountId,
      job: {
        id: 'x',
        kind: 'research',
        status: 'completed' as const,
        run_id: 'run-1',
        created_at: null,
        closed_at: new Date().toISOString(),
      },
      result: { ok: true },
    };
    const deps = { db: harness().db, secretHashKey: harness().deps.secretHashKey };
    const [first] = await recordJobClosed(deps, input);
    const [second] = await recordJobClosed(deps, input);
    assert.equal(second, first);
    assert.equal((await harness().db('alert_events').where({ account_id: account.accountId })).length, 1);
  });

  it('no endpoint subscribed: a closing job records no event', async () => {
    const { handle } = await start(quickJobContract, [{ value: 'x' }]);
    await handle.result();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await harness().db('alert_events').where({ account_id: account.accountId })).length, 0);
  });

  it('a canceled job sends nothing', async () => {
    await createEndpoint(world.app, account.ownerToken, { url: receiver.url, events: ['job.completed', 'job.failed'] });
    const { handle } = await start(quickJobContract, [{ value: 'slow', delayMs: 30_000 }]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await handle.cancel();
    await assert.rejects(handle.result());
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal((await harness().db('alert_events').where({ account_id: account.accountId })).length, 0);
    assert.equal(receiver.received.length, 0);
  });
});
