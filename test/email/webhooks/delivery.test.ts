import assert from 'node:assert/strict';
import { emitEmailEvents, emitEvents } from '../../../src/email/webhooks/service';
import { harness } from '../../helpers/harness';
import {
  createEndpoint,
  deliveriesOf,
  deliveryResult,
  keyedAccount,
  startWebhookWorld,
  TEST_TIMEOUT_MS,
  waitFor,
  type KeyedAccount,
  type WebhookWorld,
} from './fixtures';
import { Receiver, verifyStandardWebhook } from './receiver';

const FAST = { initialIntervalMs: 200, maximumIntervalMs: 2_000 };
const sent = (to = 'ada@example.test') => ({ type: 'email.sent' as const, data: { id: 'msg_1', to: [to], subject: 'Hello' } });

describe('email event delivery', function () {
  this.timeout(60_000);
  let world: WebhookWorld;
  let receiver: Receiver;
  let account: KeyedAccount;

  before(async () => {
    world = await startWebhookWorld();
  });
  after(async () => {
    await world?.stop();
  });
  beforeEach(async () => {
    receiver = await Receiver.start();
    account = await keyedAccount();
  });
  afterEach(async () => {
    await receiver.close();
  });

  const endpoint = (body: Record<string, unknown> = {}) =>
    createEndpoint(account.key, { url: receiver.url, events: ['email.sent', 'email.failed'], ...body }, world.app);

  it('an emitted event is POSTed as { type, created_at, data } with Standard Webhooks headers signed with the shown secret', async () => {
    const hook = await endpoint();
    const before = Math.floor(Date.now() / 1000);
    const {
      ids: [eventId],
      dispatched,
    } = await emitEmailEvents(world.deps, account.accountId, [sent()]);
    await dispatched;
    const result = await deliveryResult(eventId);
    assert.deepEqual(
      result.deliveries.map((d) => [d.endpoint_id, d.status, d.attempts]),
      [[hook.id, 'delivered', 1]],
    );

    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received;
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['webhook-id'], eventId);
    const timestamp = Number(request.headers['webhook-timestamp']);
    assert.ok(timestamp >= before && timestamp <= Math.floor(Date.now() / 1000), `timestamp ${timestamp}`);
    assert.match(String(request.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.ok(
      verifyStandardWebhook(hook.secret, request.headers, request.body),
      'the signature verifies with the secret shown at creation',
    );

    const body = JSON.parse(request.body.toString('utf8'));
    const event = await harness().db('email_events').where({ id: eventId }).first();
    assert.deepEqual(body, { type: 'email.sent', created_at: event.created_at.toISOString(), data: sent().data });
    assert.ok(event.dispatched_at, 'the event is stamped dispatched');
  });

  it('the signature covers the exact bytes sent: one changed byte, id or timestamp no longer verifies', async () => {
    const hook = await endpoint();
    const {
      ids: [eventId],
    } = await emitEmailEvents(world.deps, account.accountId, [sent('zoë@example.test')]);
    await deliveryResult(eventId);
    const [{ headers, body }] = receiver.received;
    assert.ok(verifyStandardWebhook(hook.secret, headers, body));
    assert.ok(body.includes(Buffer.from('zoë', 'utf8')), 'non-ASCII data travels as UTF-8');
    const altered = Buffer.from(body);
    altered[altered.length - 2] ^= 1;
    assert.equal(verifyStandardWebhook(hook.secret, headers, altered), false);
    assert.equal(
      verifyStandardWebhook(hook.secret, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) }, body),
      false,
    );
    assert.equal(verifyStandardWebhook(hook.secret, { ...headers, 'webhook-id': `${eventId}x` }, body), false);
    const other = await endpoint();
    assert.equal(verifyStandardWebhook(other.secret, headers, body), false, "another endpoint's secret does not verify");
  });

  it('5xx answers are retried with exponential backoff until a 2xx delivers; every attempt carries the same webhook-id', async () => {
    const hook = await endpoint();
    receiver.answer({ status: 500 }, { status: 503 }, { status: 502 });
    const {
      ids: [eventId],
    } = await emitEvents(world.deps, account.accountId, [sent()], { retry: FAST });
    const result = await deliveryResult(eventId);
    assert.deepEqual(
      result.deliveries.map((d) => [d.status, d.attempts]),
      [['delivered', 4]],
    );
    assert.equal(receiver.received.length, 4);
    assert.deepEqual(new Set(receiver.received.map((r) => r.headers['webhook-id'])), new Set([eventId]));
    for (const r of receiver.received) assert.ok(verifyStandardWebhook(hook.secret, r.headers, r.body), 'each attempt is signed anew');
    const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i].at);
    assert.ok(gaps[0] >= 200 && gaps[1] >= 400 && gaps[2] >= 800, `gaps double from 200 ms: ${gaps}`);

    const { body } = await deliveriesOf(world.app, account.key, hook.id);
    assert.equal(body.total, 1);
    assert.deepEqual(
      {
        event_id: body.data[0].event_id,
        event_type: body.data[0].event_type,
        status: body.data[0].status,
        attempts: body.data[0].attempts,
        last_status: body.data[0].last_status,
        last_error: body.data[0].last_error,
      },
      { event_id: eventId, event_type: 'email.sent', status: 'delivered', attempts: 4, last_status: 200, last_error: null },
    );
    assert.ok(body.data[0].delivered_at);
  });

  it('a 4xx answer (other than 408 and 429) fails the delivery at once, without retry', async () => {
    const hook = await endpoint();
    receiver.answer({ status: 400 }, { status: 200 });
    const {
      ids: [eventId],
    } = await emitEvents(world.deps, account.accountId, [sent()], { retry: FAST });
    const result = await deliveryResult(eventId);
    assert.deepEqual(
      result.deliveries.map((d) => [d.status, d.attempts]),
      [['failed', 1]],
    );
    await new Promise((resolve) => setTimeout(resolve, 3 * FAST.initialIntervalMs));
    assert.equal(receiver.received.length, 1, 'no second attempt');
    const { body } = await deliveriesOf(world.app, account.key, hook.id);
    assert.deepEqual(
      [body.data[0].status, body.data[0].attempts, body.data[0].last_status, body.data[0].delivered_at],
      ['failed', 1, 400, null],
    );
    assert.match(body.data[0].last_error, /400/);
  });

  it('408 and 429 answers are retried', async () => {
    await endpoint();
    receiver.answer({ status: 429 }, { status: 408 });
    const {
      ids: [eventId],
    } = await emitEvents(world.deps, account.accountId, [sent()], { retry: FAST });
    const result = await deliveryResult(eventId);
    assert.deepEqual(
      result.deliveries.map((d) => [d.status, d.attempts]),
      [['delivered', 3]],
    );
  });

  it('an attempt that gets no answer within the timeout is retried', async () => {
    const hook = await endpoint();
    receiver.answer({ status: 200, delayMs: TEST_TIMEOUT_MS * 4 });
    const {
      ids: [eventId],
    } = await emitEvents(world.deps, account.accountId, [sent()], { retry: FAST });
    const pending = await waitFor(
      () => deliveriesOf(world.app, account.key, hook.id),
      (res) => res.body.data[0]?.attempts === 1,
      10_000,
      'the timed-out attempt',
    );
    assert.equal(pending.body.data[0].status, 'pending');
    assert.equal(pending.body.data[0].last_status, null);
    assert.match(pending.body.data[0].last_error, new RegExp(`${TEST_TIMEOUT_MS} ms|in time`));
    const result = await deliveryResult(eventId);
    assert.deepEqual(
      result.deliveries.map((d) => [d.status, d.attempts]),
      [['delivered', 2]],
    );
    assert.equal(receiver.received.length, 2);
  });

  it('retries stop after the give-up window: the last failure is final and recorded', async () => {
    const hook = await endpoint();
    receiver.answer(...Array.from({ length: 50 }, () => ({ status: 500 })));
    const giveUpAfterMs = 1_500;
    const {
      ids: [eventId],
    } = await emitEvents(world.deps, account.accountId, [sent()], {
      retry: { initialIntervalMs: 100, maximumIntervalMs: 100, giveUpAfterMs },
    });
    const result = await deliveryResult(eventId);
    const attempts = receiver.received.length;
    assert.deepEqual(
      result.deliveries.map((d) => [d.status, d.attempts]),
      [['failed', attempts]],
    );
    assert.ok(attempts >= 3, `attempts: ${attempts} at ${receiver.received.map((r) => r.at - receiver.received[0].at)}`);
    assert.ok(attempts <= giveUpAfterMs / 100 + 1, `at most one attempt per interval within the window: ${attempts}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.received.length, attempts, 'nothing after the final attempt');
    const { body } = await deliveriesOf(world.app, account.key, hook.id);
    assert.deepEqual([body.data[0].status, body.data[0].attempts, body.data[0].last_status], ['failed', attempts, 500]);
    assert.match(body.data[0].last_error, /500/);
  });

  it('a disabled endpoint receives nothing', async () => {
    const disabled = await endpoint();
    const patched = await world.app.call('PATCH', `/v1/email/webhooks/${disabled.id}`, { token: account.key, body: { enabled: false } });
    assert.equal(patched.status, 200, patched.text);
    const enabledReceiver = await Receiver.start();
    try {
      const enabled = await createEndpoint(account.key, { url: enabledReceiver.url, events: ['email.sent'] }, world.app);
      const {
        ids: [eventId],
      } = await emitEmailEvents(world.deps, account.accountId, [sent()]);
      const result = await deliveryResult(eventId);
      assert.deepEqual(
        result.deliveries.map((d) => d.endpoint_id),
        [enabled.id],
      );
      assert.equal(enabledReceiver.received.length, 1);
      assert.equal(receiver.received.length, 0);
      assert.equal((await deliveriesOf(world.app, account.key, disabled.id)).body.total, 0);
    } finally {
      await enabledReceiver.close();
    }
  });

  it('an endpoint not subscribed to the event type receives nothing', async () => {
    const failedOnly = await endpoint({ events: ['email.failed'] });
    const {
      ids: [sentId, failedId],
    } = await emitEmailEvents(world.deps, account.accountId, [
      sent(),
      { type: 'email.failed', data: { id: 'msg_2', error: 'smtp_rejected' } },
    ]);
    assert.deepEqual((await deliveryResult(sentId)).deliveries, []);
    assert.deepEqual(
      (await deliveryResult(failedId)).deliveries.map((d) => d.endpoint_id),
      [failedOnly.id],
    );
    assert.equal(receiver.received.length, 1);
    assert.equal(JSON.parse(receiver.received[0].body.toString()).type, 'email.failed');
  });

  it('events reach only the endpoints of their own account', async () => {
    await endpoint();
    const other = await keyedAccount();
    const {
      ids: [eventId],
    } = await emitEmailEvents(world.deps, other.accountId, [sent()]);
    assert.deepEqual((await deliveryResult(eventId)).deliveries, []);
    assert.equal(receiver.received.length, 0);
  });

  it('events emitted in a transaction are delivered after it commits, and never when it rolls back', async () => {
    await endpoint();
    const { db } = harness();
    let rolledBack: string[] = [];
    let rolledBackDispatch: Promise<void> = Promise.resolve();
    await db
      .transaction(async (trx) => {
        const emitted = await emitEmailEvents(world.deps, account.accountId, [sent('rollback@example.test')], trx);
        rolledBack = emitted.ids;
        rolledBackDispatch = emitted.dispatched;
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await rolledBackDispatch;
    assert.equal(await db('email_events').whereIn('id', rolledBack).first(), undefined);
    const started = await harness()
      .client.workflow.getHandle(`email-event:${rolledBack[0]}`)
      .describe()
      .then(
        () => true,
        () => false,
      );
    assert.equal(started, false, 'no workflow for a rolled-back event');

    let committedId = '';
    let seenInTransaction = true;
    await db.transaction(async (trx) => {
      const emitted = await emitEmailEvents(world.deps, account.accountId, [sent('commit@example.test')], trx);
      committedId = emitted.ids[0];
      await new Promise((resolve) => setTimeout(resolve, 300));
      seenInTransaction = receiver.received.length > 0;
    });
    assert.equal(seenInTransaction, false, 'nothing is sent before the commit');
    const result = await deliveryResult(committedId);
    assert.equal(result.deliveries[0].status, 'delivered');
    assert.equal(receiver.received.length, 1);
    assert.match(receiver.received[0].body.toString(), /commit@example\.test/);
  });

  it('POST /{id}/test sends a signed email.test event through the delivery workflow and answers its job id', async () => {
    const hook = await endpoint({ events: ['email.failed'] });
    const res = await world.app.call('POST', `/v1/email/webhooks/${hook.id}/test`, { token: account.key });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.job_id, `email-event:${res.body.event_id}`);
    assert.equal(res.headers.get('location'), `/api/jobs/email-event:${res.body.event_id}`);
    const result = await deliveryResult(res.body.event_id);
    assert.deepEqual(
      result.deliveries.map((d) => [d.endpoint_id, d.status]),
      [[hook.id, 'delivered']],
    );
    const [request] = receiver.received;
    assert.ok(verifyStandardWebhook(hook.secret, request.headers, request.body));
    const body = JSON.parse(request.body.toString());
    assert.equal(body.type, 'email.test');
    assert.equal(body.data.webhook_endpoint_id, hook.id);
    const listed = await deliveriesOf(world.app, account.key, hook.id);
    assert.equal(listed.body.data[0].event_type, 'email.test');
  });

  it('a test event to a disabled endpoint is 409 webhook_endpoint_disabled and sends nothing', async () => {
    const hook = await endpoint();
    await world.app.call('PATCH', `/v1/email/webhooks/${hook.id}`, { token: account.key, body: { enabled: false } });
    const res = await world.app.call('POST', `/v1/email/webhooks/${hook.id}/test`, { token: account.key });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.code, 'webhook_endpoint_disabled');
    assert.equal(receiver.received.length, 0);
  });

  it('an endpoint disabled while its delivery is retrying receives no further attempt', async () => {
    const hook = await endpoint();
    receiver.answer(...Array.from({ length: 10 }, () => ({ status: 500 })));
    const {
      ids: [eventId],
    } = await emitEvents(world.deps, account.accountId, [sent()], { retry: { initialIntervalMs: 500, maximumIntervalMs: 500 } });
    await waitFor(
      async () => receiver.received.length,
      (n) => n >= 1,
      10_000,
      'the first attempt',
    );
    await world.app.call('PATCH', `/v1/email/webhooks/${hook.id}`, { token: account.key, body: { enabled: false } });
    const result = await deliveryResult(eventId);
    assert.equal(result.deliveries[0].status, 'failed');
    const seen = receiver.received.length;
    const { body } = await deliveriesOf(world.app, account.key, hook.id);
    assert.equal(body.data[0].last_error, 'endpoint disabled');
    assert.equal(body.data[0].attempts, seen);
  });

  it('the deliveries of an endpoint are listed newest first, paged', async () => {
    const hook = await endpoint();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const {
        ids: [eventId],
      } = await emitEmailEvents(world.deps, account.accountId, [sent(`n${i}@example.test`)]);
      await deliveryResult(eventId);
      ids.push(eventId);
    }
    const page = await world.app.call('GET', `/v1/email/webhooks/${hook.id}/deliveries?limit=2`, { token: account.key });
    assert.equal(page.status, 200, page.text);
    assert.deepEqual([page.body.total, page.body.limit, page.body.page], [3, 2, 1]);
    assert.deepEqual(
      page.body.data.map((d: { event_id: string }) => d.event_id),
      [ids[2], ids[1]],
    );
  });
});
