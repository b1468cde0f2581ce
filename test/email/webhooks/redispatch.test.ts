import assert from 'node:assert/strict';
import { unreachableTemporal } from '../../helpers/unreachableTemporal';
import { Worker } from '@temporalio/worker';
import type { AppDeps } from '../../../src/deps';
import { emitEmailEvents, emitEvents } from '../../../src/email/webhooks/service';
import { SCHEDULES } from '../../../src/app/schedules';
import { EmailEventRedispatcher } from '../../../src/email/webhooks/redispatchRelay';
import type { PassResult } from '../../../src/temporal/outboxRelay';
import { harness } from '../../helpers/harness';
import { createEndpoint, deliveryResult, keyedAccount, startWebhookWorld, type WebhookWorld } from './fixtures';
import { Receiver, verifyStandardWebhook } from './receiver';

const sent = { type: 'email.sent' as const, data: { id: 'msg_9', to: ['grace@example.test'] } };

describe('email event re-dispatch and durability', function () {
  this.timeout(60_000);
  let world: WebhookWorld;
  let receiver: Receiver;
  before(async () => {
    world = await startWebhookWorld();
    receiver = await Receiver.start();
  });
  after(async () => {
    await receiver?.close();
    await world?.stop();
  });

  /** One pass of the re-dispatch relay the API runs (src/app/apiCompanions.ts). */
  const runSweep = (): Promise<PassResult> => new EmailEventRedispatcher(world.deps).dispatchOnce();
  const workflowExists = (eventId: string) =>
    harness()
      .client.workflow.getHandle(`email-event:${eventId}`)
      .describe()
      .then(
        () => true,
        () => false,
      );

  it('re-dispatch is no Schedule: nothing starts a workflow while there is nothing to re-dispatch', async () => {
    assert.equal(
      SCHEDULES.find((s) => s.name === 'email-event-redispatch'),
      undefined,
    );
    const { client } = harness();
    // Events earlier tests left without a stamp are handed over first: then there is nothing to re-dispatch.
    for (let pass = await runSweep(); pass.dispatched > 0; pass = await runSweep()) assert.equal(pass.failed, 0);
    // Visibility lags: runs started before may still be arriving, so the count is taken once it holds still.
    const count = async () => (await client.workflow.count(`TaskQueue = '${world.taskQueue}'`)).count;
    let before = await count();
    for (let still = 0; still < 3;) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const now = await count();
      still = now === before ? still + 1 : 0;
      before = now;
    }
    const idle = await runSweep();
    assert.deepEqual([idle.dispatched, idle.failed], [0, 0]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await count(), before, 'a pass with nothing to re-dispatch starts no workflow');
  });

  it('an event emitted while Temporal is unreachable is recorded and delivered later by the re-dispatch sweep', async () => {
    const { db, deps } = harness();
    const account = await keyedAccount();
    const hook = await createEndpoint(account.key, { url: receiver.url, events: ['email.sent'] }, world.app);
    const unreachable = unreachableTemporal(deps.temporal.namespace);
    const down: AppDeps = { ...world.deps, temporal: { ...world.deps.temporal, client: unreachable } };

    const emitted = await emitEmailEvents(down, account.accountId, [sent]);
    await emitted.dispatched; // the start failed: logged, never thrown at the caller
    const [eventId] = emitted.ids;
    assert.equal((await db('email_events').where({ id: eventId }).first()).dispatched_at, null);

    await runSweep();
    assert.equal(await workflowExists(eventId), false, 'an event younger than a minute is left to its emitter');

    await db('email_events')
      .where({ id: eventId })
      .update({ created_at: db.raw(`now() - interval '2 minutes'`) });
    const summary = await runSweep();
    assert.ok(summary.dispatched >= 1, JSON.stringify(summary));
    const result = await deliveryResult(eventId);
    assert.deepEqual(
      result.deliveries.map((d) => [d.endpoint_id, d.status]),
      [[hook.id, 'delivered']],
    );
    assert.equal(receiver.received.length, 1);
    assert.ok(verifyStandardWebhook(hook.secret, receiver.received[0].headers, receiver.received[0].body));
    assert.ok((await db('email_events').where({ id: eventId }).first()).dispatched_at, 'stamped dispatched');

    await runSweep();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.received.length, 1, 'a second sweep delivers nothing again');
    await unreachable.connection.close().catch(() => undefined);
  });

  it("starting an event's workflow again attaches to it: an event is delivered once", async () => {
    const { db } = harness();
    const account = await keyedAccount();
    const local = await Receiver.start();
    try {
      await createEndpoint(account.key, { url: local.url, events: ['email.sent'] }, world.app);
      const {
        ids: [eventId],
      } = await emitEmailEvents(world.deps, account.accountId, [sent]);
      await deliveryResult(eventId);
      // As if the stamp had been lost after the start: the sweep finds the event again.
      await db('email_events')
        .where({ id: eventId })
        .update({ dispatched_at: null, created_at: db.raw(`now() - interval '2 minutes'`) });
      const summary = await runSweep();
      assert.ok(summary.dispatched >= 1, JSON.stringify(summary));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(local.received.length, 1);
      assert.ok((await db('email_events').where({ id: eventId }).first()).dispatched_at);
    } finally {
      await local.close();
    }
  });

  it('the delivery workflow replays deterministically from its history (retries and timers included)', async () => {
    const account = await keyedAccount();
    const local = await Receiver.start();
    try {
      local.answer({ status: 500 }, { status: 503 });
      await createEndpoint(account.key, { url: local.url, events: ['email.sent'] }, world.app);
      await createEndpoint(account.key, { url: local.url, events: ['email.sent'] }, world.app);
      const {
        ids: [eventId],
      } = await emitEvents(world.deps, account.accountId, [sent], { retry: { initialIntervalMs: 100, maximumIntervalMs: 400 } });
      const result = await deliveryResult(eventId);
      assert.deepEqual(
        result.deliveries.map((d) => d.status),
        ['delivered', 'delivered'],
      );
      const handle = harness().client.workflow.getHandle(`email-event:${eventId}`);
      await Worker.runReplayHistory({ workflowBundle: harness().bundle }, await handle.fetchHistory(), handle.workflowId);
    } finally {
      await local.close();
    }
  });
});
