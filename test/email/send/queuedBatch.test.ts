import assert from 'node:assert/strict';
import { unreachableTemporal } from '../../helpers/unreachableTemporal';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { assertError } from '../../marketing/grounding/fixtures';
import { eventually } from '../../jobs/jobTestKit';
import { emailKey, eventRows, message, messageRows, senderAccount, settledEmail, sleep, startSendWorld } from './kit';
import { batchJobSettled, batchOf, mostInOneSecond, startQueuedWorld, type QueuedWorld } from './queuedKit';

type QueuedEntry = { index: number; id: string; messageId: string; status: string; recipients: unknown };

/** What the relay received of this batch (an earlier test's batch may still be arriving). */
function receivedOf(world: QueuedWorld, batch: { data: QueuedEntry[] }) {
  const ids = new Set(batch.data.map((e) => e.messageId));
  return world.smtp.messages.filter((m) => ids.has(m.parsed.header('message-id') ?? ''));
}

const dailySends = async (keyId: string) =>
  (await harness().db('email_key_daily_sends').where({ key_id: keyId }).first('sends'))?.sends ?? 0;

describe("POST /v1/email/batch with a live key: queued and sent at the key's rate", function () {
  this.timeout(60_000);
  let world: QueuedWorld;

  before(async () => {
    world = await startQueuedWorld({ config: { EMAIL_RETRY_INITIAL_SECONDS: 1 } });
  });
  afterEach(() => world.smtp.reset());
  after(async () => {
    await world.close();
  });

  it("a batch of 100 with a default live key is 202 queued, delivered by one workflow at the key's rate, each with its event", async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { ratePerSecond: 10 }); // doc1's default per-second limit
    const res = await world.app.call('POST', '/v1/email/batch', { token, body: batchOf(100) });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.object, 'batch');
    assert.equal(res.body.data.length, 100);
    res.body.data.forEach((entry: QueuedEntry, i: number) => {
      assert.equal(entry.index, i);
      assert.equal(entry.status, 'queued');
      assert.equal(entry.messageId, `<${entry.id}@mail.example.test>`);
    });
    const last = await world.app.call('GET', `/v1/email/messages/${res.body.data[99].id}`, { token });
    assert.equal(last.status, 200, last.text);
    assert.equal(last.body.status, 'queued');

    // While the batch holds this replica's share of the key, nothing else of the key is admitted here.
    assertError(await world.app.call('POST', '/v1/email/send', { token, body: message() }), 429, 'rate_limit_exceeded');

    const listed = await eventually(
      () => call('GET', '/api/jobs?kind=email-batch', { token: account.ownerToken }),
      (r) => r.status === 200 && r.body.data.length === 1,
      10_000,
      'the batch job in GET /api/jobs',
    );
    assert.equal(listed.body.data[0].id, res.body.job_id);
    await eventually(
      () => call('GET', `/api/jobs/${encodeURIComponent(res.body.job_id)}`, { token: account.ownerToken }),
      (r) => r.body.progress?.total === 100,
      10_000,
      'the progress query of the batch job',
    );

    const job = await batchJobSettled(account.ownerToken, res.body.job_id);
    assert.deepEqual(job.body.result, { batch_id: res.body.id, total: 100, sent: 100, failed: 0, deferred: 0 });
    const received = receivedOf(world, res.body);
    assert.equal(received.length, 100);
    assert.ok(mostInOneSecond(received.map((m) => m.receivedAt)) <= 10, "never more than the key's 10 per second at the relay");
    assert.deepEqual(
      new Set(received.map((m) => m.parsed.header('message-id'))),
      new Set(res.body.data.map((e: QueuedEntry) => e.messageId)),
    );

    const rows = await messageRows(account.accountId);
    assert.deepEqual([...new Set(rows.map((r) => r.status))], ['sent']);
    assert.ok(
      rows.every((r) => r.payload === null),
      'a delivered message keeps no body',
    );
    const events = await eventRows(account.accountId);
    assert.equal(events.filter((e) => e.type === 'email.sent').length, 100);
    await eventually(
      () => eventRows(account.accountId),
      (rs) => rs.every((e) => e.dispatched_at !== null),
      10_000,
      'every event handed to its delivery workflow',
    );
    assert.equal((await world.app.call('GET', `/v1/email/messages/${res.body.data[99].id}`, { token })).body.status, 'sent');
  });

  it('the daily cap is charged up front for the whole batch and refunded for the messages that fail', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { ratePerSecond: 50, dailyCap: 60 });
    // The refused message is in the batch's second second: until then nothing has been refunded.
    world.smtp.refuseNext('rcpt', { code: 550, message: 'No such user', recipient: 'r55@customer.test' });
    const otherReplica = await startSendWorld();
    try {
      const res = await world.app.call('POST', '/v1/email/batch', { token, body: batchOf(60) });
      assert.equal(res.status, 202, res.text);
      assert.equal(await dailySends(id), 60, 'charged before anything is sent');
      // Another replica has its own share of the key free: the shared daily cap is what refuses it there.
      assertError(await otherReplica.app.call('POST', '/v1/email/send', { token, body: message() }), 429, 'daily_quota_exceeded');

      const job = await batchJobSettled(account.ownerToken, res.body.job_id);
      assert.deepEqual(job.body.result, { batch_id: res.body.id, total: 60, sent: 59, failed: 1, deferred: 0 });
      const failed = await world.app.call('GET', `/v1/email/messages/${res.body.data[55].id}`, { token });
      assert.equal(failed.body.status, 'failed');
      assert.equal(failed.body.error_code, 'smtp_rejected');
      assert.equal(await dailySends(id), 59, 'the failed message was refunded');
      assert.deepEqual(
        (await eventRows(account.accountId)).filter((e) => e.type === 'email.failed').map((e) => e.data.email_id),
        [res.body.data[55].id],
      );
    } finally {
      await otherReplica.close();
    }

    await sleep(1_100); // the hold ends a second after the batch's last send
    const refunded = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(refunded.status, 202, `the refunded slot can be used: ${refunded.text}`);
    assertError(await world.app.call('POST', '/v1/email/send', { token, body: message() }), 429, 'daily_quota_exceeded');
    assert.equal((await settledEmail(world, token, refunded.body.id)).body.status, 'sent');
  });

  it('a batch message the relay defers (4xx) is retried by its own email-delivery job and delivered; the batch counts it deferred', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { ratePerSecond: 10 });
    world.smtp.refuseNext('rcpt', { code: 451, message: '4.2.1 Mailbox busy, try later', recipient: 'r1@customer.test' });
    const res = await world.app.call('POST', '/v1/email/batch', { token, body: batchOf(3) });
    assert.equal(res.status, 202, res.text);
    const job = await batchJobSettled(account.ownerToken, res.body.job_id);
    assert.deepEqual(job.body.result, { batch_id: res.body.id, total: 3, sent: 2, failed: 0, deferred: 1 });

    const deferredId = res.body.data[1].id;
    const retryJob = await eventually(
      () =>
        call('GET', `/api/jobs/${encodeURIComponent(`email-delivery:${account.accountId}:${deferredId}`)}`, { token: account.ownerToken }),
      (r) => r.status === 200,
      10_000,
      'the deferred message its own delivery job',
    );
    assert.equal(retryJob.body.kind, 'email-delivery');
    const settled = await settledEmail(world, token, deferredId);
    assert.equal(settled.body.status, 'sent');
    assert.equal(settled.body.attempts, 2);
    assert.equal(settled.body.batch_id, res.body.id);
    assert.equal(receivedOf(world, res.body).length, 3, 'each message delivered once');
    const events = await eventRows(account.accountId);
    const delayed = events.filter((e) => e.type === 'email.delivery_delayed');
    assert.deepEqual(
      delayed.map((e) => [e.data.email_id, e.data.recipient, e.data.smtp_code]),
      [[deferredId, 'r1@customer.test', 451]],
    );
    assert.equal(events.filter((e) => e.type === 'email.sent').length, 3);
  });

  it('a key revoked mid-batch fails the remaining messages with api_key_revoked and refunds their daily cap', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { ratePerSecond: 10, dailyCap: 100 });
    const res = await world.app.call('POST', '/v1/email/batch', { token, body: batchOf(40) });
    assert.equal(res.status, 202, res.text);
    await eventually(
      async () => receivedOf(world, res.body).length,
      (n) => n >= 10,
      10_000,
      'the first second of the batch',
    );
    const revoked = await world.app.call('POST', `/api/email/keys/${id}/revoke`, { token: account.ownerToken });
    assert.equal(revoked.status, 200, revoked.text);

    const job = await batchJobSettled(account.ownerToken, res.body.job_id);
    const sent = receivedOf(world, res.body).length;
    assert.ok(sent >= 10 && sent < 40, `some messages left before the revocation, not all (${sent})`);
    assert.deepEqual(job.body.result, { batch_id: res.body.id, total: 40, sent, failed: 40 - sent, deferred: 0 });
    const rows = await messageRows(account.accountId);
    const failed = rows.filter((r) => r.status === 'failed');
    assert.equal(failed.length, 40 - sent);
    assert.ok(failed.every((r) => r.error_code === 'api_key_revoked'));
    assert.equal((await eventRows(account.accountId)).filter((e) => e.type === 'email.failed').length, 40 - sent);
    assert.equal(await dailySends(id), sent, 'the messages that never left were refunded');
  });

  it('Idempotency-Key replays the 202 of a queued batch and delivers it once', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { ratePerSecond: 50 });
    const headers = { 'Idempotency-Key': 'batch-replay-1' };
    const first = await world.app.call('POST', '/v1/email/batch', { token, headers, body: batchOf(60) });
    assert.equal(first.status, 202, first.text);
    const again = await world.app.call('POST', '/v1/email/batch', { token, headers, body: batchOf(60) });
    assert.equal(again.status, 202, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    await batchJobSettled(account.ownerToken, first.body.job_id);
    await sleep(300);
    assert.equal(receivedOf(world, first.body).length, 60);
    assert.equal((await messageRows(account.accountId)).length, 60);
  });
});

describe('POST /v1/email/batch with a live key without Temporal', () => {
  it('a batch that cannot be queued (Temporal unreachable) is 503 temporal_unavailable and leaves nothing behind', async function () {
    const unreachable = unreachableTemporal(harness().deps.temporal.namespace);
    const world = await startSendWorld({ temporal: { client: unreachable } });
    try {
      const account = await senderAccount();
      const { token, id } = await emailKey(account.accountId, { ratePerSecond: 10, dailyCap: 100 });
      assertError(await world.app.call('POST', '/v1/email/batch', { token, body: batchOf(20) }), 503, 'temporal_unavailable');
      assert.equal((await messageRows(account.accountId)).length, 0, 'no queued message stays behind');
      assert.equal(await dailySends(id), 0, 'the daily cap charge was given back');
      // Neither held nor its share taken: the next send gets as far as the job engine again (a held key or a spent
      // share would be 429 before it).
      assertError(await world.app.call('POST', '/v1/email/send', { token, body: message() }), 503, 'temporal_unavailable');
      assert.equal((await messageRows(account.accountId)).length, 0, 'a send that cannot be queued stays behind neither');
      assert.equal(await dailySends(id), 0);
    } finally {
      // The unreachable connection is left open: the SDK may still retry the failed start on it after the answer.
      await world.close();
    }
  });
});

describe('POST /v1/email/batch beyond the per-second limit with a test key', () => {
  it('a batch of 100 with a default test key is simulated at once (200), each result with its recipients', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', ratePerSecond: 10 });
    const res = await call('POST', '/v1/email/batch', { token, body: batchOf(100) });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([...new Set(res.body.data.map((e: QueuedEntry) => e.status))], ['simulated']);
    assert.deepEqual(res.body.data[7].recipients, [{ email: 'r7@customer.test', type: 'to', state: 'simulated' }]);
    assert.equal(res.body.data.length, 100);
    assert.equal((await messageRows(account.accountId)).length, 0);
  });
});
