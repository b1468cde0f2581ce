import assert from 'node:assert/strict';
import { startJob } from '../../src/temporal/jobs';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { Receiver, verifyStandardWebhook } from '../email/webhooks/receiver';
import { failingJobContract } from '../workflows/failingJob.contract';
import { quickJobContract } from '../workflows/quickJob.contract';
import { createEndpoint, deliveryResult, eventOf, useAlertWorld, waitFor, type AlertWorld } from './fixtures';

describe('job callback_url', function () {
  this.timeout(60_000);
  let world: AlertWorld;
  let receiver: Receiver;
  let account: TestAccount;
  useAlertWorld('Callbacks Co', (test) => ({ world, receiver, account } = test));

  const callbackSecret = async () => {
    const res = await world.app.call('POST', '/api/job-callbacks/secret', { token: account.ownerToken });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    return res.body.secret as string;
  };

  it("a job started with a callbackUrl POSTs its job.completed event there, signed with the account's callback secret", async () => {
    const secret = await callbackSecret();
    const { id: jobId, handle } = await startJob(world.deps.temporal, world.deps.metrics, quickJobContract, {
      accountId: account.accountId,
      args: [{ value: 'called back' }],
      requestId: 'callback-test',
      memo: { callbackUrl: receiver.url },
    });
    const jobResult = await handle.result();
    const event = await eventOf(account.accountId, 'job.completed');
    const result = await deliveryResult(event.id);
    assert.deepEqual(
      result.deliveries.map((d) => [d.endpoint_id, d.status, d.attempts]),
      [[null, 'delivered', 1]],
    );
    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received;
    assert.equal(request.headers['webhook-id'], event.id);
    assert.ok(verifyStandardWebhook(secret, request.headers, request.body), 'verifies with the callback secret');
    const body = JSON.parse(request.body.toString('utf8'));
    assert.equal(body.type, 'job.completed');
    assert.equal(body.data.job.id, jobId);
    assert.deepEqual(body.data.result, jobResult);

    const log = await world.app.call('GET', '/api/job-callbacks/deliveries', { token: account.ownerToken });
    assert.equal(log.status, 200, log.text);
    assert.deepEqual(
      log.body.data.map((d: Record<string, unknown>) => [d.event_id, d.event_type, d.status, d.last_status]),
      [[event.id, 'job.completed', 'delivered', 200]],
    );
    const stranger = await newAccount();
    assert.equal((await world.app.call('GET', '/api/job-callbacks/deliveries', { token: stranger.ownerToken })).body.total, 0);
  });

  it('a failed job calls back with job.failed; the callback is retried like endpoint deliveries and subscribed endpoints get the event too', async () => {
    const secret = await callbackSecret();
    const endpointReceiver = await Receiver.start();
    try {
      const hook = await createEndpoint(world.app, account.ownerToken, { url: endpointReceiver.url, events: ['job.failed'] });
      receiver.answer({ status: 503 });
      const { handle } = await startJob(world.deps.temporal, world.deps.metrics, failingJobContract, {
        accountId: account.accountId,
        args: [{ code: 'quota_exceeded', message: 'the monthly quota is used up' }],
        requestId: 'callback-test',
        memo: { callbackUrl: receiver.url },
      });
      await assert.rejects(handle.result());
      const event = await eventOf(account.accountId, 'job.failed');
      // The relay starts deliveries with the product backoff (30 s); the second attempt is not waited for here.
      await waitFor(
        () => Promise.resolve(receiver.received.length + endpointReceiver.received.length),
        (n) => n >= 2,
        15_000,
        'the callback and the endpoint delivery',
      );
      assert.ok(verifyStandardWebhook(secret, receiver.received[0].headers, receiver.received[0].body));
      assert.ok(verifyStandardWebhook(hook.secret, endpointReceiver.received[0].headers, endpointReceiver.received[0].body));
      assert.equal(JSON.parse(receiver.received[0].body.toString('utf8')).data.error.code, 'quota_exceeded');
      const callbackRow = await waitFor(
        () => harness().db('account_webhook_deliveries').where({ event_id: event.id }).whereNull('endpoint_id').first(),
        (row) => row?.attempts === 1,
        5_000,
        'the callback attempt recorded',
      );
      assert.deepEqual([callbackRow.status, callbackRow.last_status], ['pending', 503], 'a 503 leaves the callback pending for a retry');
      await harness().client.workflow.getHandle(`alert-event:${event.id}`).terminate('test over');
    } finally {
      await endpointReceiver.close();
    }
  });

  it('a callback before any secret was created is signed with one created then, sealed; a rotation replaces it', async () => {
    const { handle } = await startJob(world.deps.temporal, world.deps.metrics, quickJobContract, {
      accountId: account.accountId,
      args: [{ value: 'x' }],
      requestId: 'callback-test',
      memo: { callbackUrl: receiver.url },
    });
    await handle.result();
    const event = await eventOf(account.accountId, 'job.completed');
    await deliveryResult(event.id);
    const row = await harness().db('account_callback_secrets').where({ account_id: account.accountId }).first();
    assert.match(row.secret_enc, /^v1:/);
    const rotated = await callbackSecret();
    assert.equal(verifyStandardWebhook(rotated, receiver.received[0].headers, receiver.received[0].body), false);
  });
});
