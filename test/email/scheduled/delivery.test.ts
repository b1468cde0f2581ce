import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { assertError } from '../../marketing/grounding/fixtures';
import { eventually } from '../../jobs/jobTestKit';
import { addSuppression } from '../../../src/email/suppressions/service';
import { emailKey, eventRows, message, senderAccount, settledEmail, sleep } from '../send/kit';
import { startQueuedWorld, type QueuedWorld } from '../send/queuedKit';
import { inSeconds, jobIdOf, messageRow, receivedOf, scheduledJobSettled } from './kit';

describe('scheduled sends: POST /v1/email/send with scheduled_at', function () {
  this.timeout(90_000);
  let world: QueuedWorld;

  before(async () => {
    // A delivery the relay defers at its time is retried a second later.
    world = await startQueuedWorld({ config: { EMAIL_RETRY_INITIAL_SECONDS: 1 } });
  });
  afterEach(() => world.smtp.reset());
  after(async () => {
    await world.close();
  });

  const schedule = (token: string, seconds: number, overrides: Record<string, unknown> = {}) =>
    world.app.call('POST', '/v1/email/send', { token, body: message({ scheduled_at: inSeconds(seconds), ...overrides }) });

  it('is 202 scheduled with an email.scheduled event, listed as an email-scheduled job, and delivered at its time', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const at = inSeconds(4);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ scheduled_at: at }) });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.object, 'email');
    assert.equal(res.body.status, 'scheduled');
    assert.equal(res.body.scheduled_at, new Date(at).toISOString());
    assert.equal(res.body.test, false);
    const id = res.body.id;

    const read = await world.app.call('GET', `/v1/email/emails/${id}`, { token });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, 'scheduled');
    assert.equal(read.body.scheduled_at, new Date(at).toISOString());
    assert.equal(read.body.sent_at, null);
    const row = await messageRow(id);
    assert.ok(row.payload, 'the body is stored until its time');
    const events = await eventRows(account.accountId);
    assert.deepEqual(
      events.map((e) => e.type),
      ['email.scheduled'],
    );
    assert.equal(events[0].data.email_id, id);
    assert.equal(events[0].data.scheduled_at, new Date(at).toISOString());

    const listed = await eventually(
      () => call('GET', '/api/jobs?kind=email-scheduled', { token: account.ownerToken }),
      (r) => r.status === 200 && r.body.data.length === 1,
      10_000,
      'the scheduled job in GET /api/jobs',
    );
    assert.equal(listed.body.data[0].id, jobIdOf(account.accountId, id));
    const job = await call('GET', `/api/jobs/${encodeURIComponent(jobIdOf(account.accountId, id))}`, { token: account.ownerToken });
    assert.equal(job.body.progress?.phase, 'waiting', job.text);

    assert.equal(receivedOf(world, res.body.messageId).length, 0, 'nothing before its time');
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.deepEqual(done.result, { email_id: id, status: 'sent' });
    const [received] = receivedOf(world, res.body.messageId);
    assert.ok(received, 'delivered');
    assert.ok(received.receivedAt.getTime() >= Date.parse(at) - 50, 'not before its time');
    const sent = await world.app.call('GET', `/v1/email/emails/${id}`, { token });
    assert.equal(sent.body.status, 'sent');
    assert.ok(sent.body.sent_at);
    assert.equal(sent.body.attempts, 1);
    assert.deepEqual(
      sent.body.recipients.map((r: { email: string; state: string }) => [r.email, r.state]),
      [['jane@customer.test', 'sent']],
    );
    assert.equal((await messageRow(id)).payload, null, 'the body goes once sent');
    assert.deepEqual(
      (await eventRows(account.accountId)).map((e) => e.type),
      ['email.scheduled', 'email.sent'],
    );
  });

  it('a cancelled email is never delivered; a second cancel or a reschedule is 409 email_not_scheduled', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await schedule(token, 3);
    assert.equal(res.status, 202, res.text);
    const cancelled = await world.app.call('POST', `/v1/email/emails/${res.body.id}/cancel`, { token });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    assertError(await world.app.call('POST', `/v1/email/emails/${res.body.id}/cancel`, { token }), 409, 'email_not_scheduled');
    assertError(
      await world.app.call('PATCH', `/v1/email/emails/${res.body.id}`, { token, body: { scheduled_at: inSeconds(60) } }),
      409,
      'email_not_scheduled',
    );
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'cancelled' });
    await sleep(3_500);
    assert.equal(receivedOf(world, res.body.messageId).length, 0);
    assert.equal((await messageRow(res.body.id)).status, 'cancelled');
  });

  it('a rescheduled email (PATCH) is delivered at its new time, not the old one', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await schedule(token, 2);
    assert.equal(res.status, 202, res.text);
    const later = inSeconds(7);
    const moved = await world.app.call('PATCH', `/v1/email/emails/${res.body.id}`, { token, body: { scheduled_at: later } });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.status, 'scheduled');
    assert.equal(moved.body.scheduled_at, new Date(later).toISOString());

    await sleep(4_000);
    assert.equal(receivedOf(world, res.body.messageId).length, 0, 'not at the old time');
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'sent' });
    const received = receivedOf(world, res.body.messageId);
    assert.equal(received.length, 1);
    assert.ok(received[0].receivedAt.getTime() >= Date.parse(later) - 50, 'at the new time');
  });

  it('a rescheduled email can also move earlier', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await schedule(token, 3600);
    const sooner = inSeconds(2);
    assert.equal((await world.app.call('PATCH', `/v1/email/emails/${res.body.id}`, { token, body: { scheduled_at: sooner } })).status, 200);
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id, 20_000);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'sent' });
    assert.equal(receivedOf(world, res.body.messageId).length, 1);
  });

  it('a key revoked before the time: not delivered, failed with api_key_revoked and email.failed, not counted', async () => {
    const account = await senderAccount();
    const { token, id: keyId } = await emailKey(account.accountId, { dailyCap: 10 });
    const res = await schedule(token, 3);
    assert.equal(res.status, 202, res.text);
    const revoked = await world.app.call('POST', `/api/email/keys/${keyId}/revoke`, { token: account.ownerToken });
    assert.equal(revoked.status, 200, revoked.text);
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'failed', error_code: 'api_key_revoked' });
    assert.equal(receivedOf(world, res.body.messageId).length, 0);
    const row = await messageRow(res.body.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.error_code, 'api_key_revoked');
    const failed = (await eventRows(account.accountId)).filter((e) => e.type === 'email.failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0].data.error.code, 'api_key_revoked');
    const daily = await harness().db('email_key_daily_sends').where({ key_id: keyId }).first('sends');
    assert.equal(daily?.sends ?? 0, 0, 'the daily cap was never charged');
  });

  it('a batch with scheduled messages: 202, each scheduled one with its time, the others queued now', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const at = inSeconds(3);
    const res = await world.app.call('POST', '/v1/email/batch', {
      token,
      body: [message({ to: 'now@customer.test' }), message({ to: 'later@customer.test', scheduled_at: at }), message({ from: 'x' })],
    });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.object, 'batch');
    assert.ok(res.body.job_id, 'the batch job sends the messages for now');
    const [now, later, invalid] = res.body.data;
    assert.equal(now.status, 'queued');
    assert.equal(later.status, 'scheduled');
    assert.equal(later.scheduled_at, new Date(at).toISOString());
    assert.deepEqual(later.recipients, [{ email: 'later@customer.test', type: 'to', state: 'scheduled' }]);
    assert.equal(invalid.error.code, 'validation_failed');
    assert.equal((await settledEmail(world, token, now.id)).body.status, 'sent');
    assert.equal(receivedOf(world, now.messageId).length, 1);
    assert.equal(receivedOf(world, later.messageId).length, 0);
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, later.id);
    assert.deepEqual(done.result, { email_id: later.id, status: 'sent' });
    assert.equal(receivedOf(world, later.messageId).length, 1);
  });

  it('a scheduled email the relay defers at its time is retried by its job and delivered once', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('mail', { code: 451, message: '4.3.0 Try again later' });
    const res = await schedule(token, 2);
    assert.equal(res.status, 202, res.text);
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'sent' });
    const read = await world.app.call('GET', `/v1/email/emails/${res.body.id}`, { token });
    assert.equal(read.body.status, 'sent');
    assert.equal(read.body.attempts, 2);
    assert.equal(receivedOf(world, res.body.messageId).length, 1);
    assert.deepEqual(
      (await eventRows(account.accountId)).map((e) => e.type),
      ['email.scheduled', 'email.delivery_delayed', 'email.sent'],
    );
  });

  it('a recipient suppressed since the email was scheduled is skipped at its time with email.suppressed; the others get it', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await schedule(token, 2, { to: ['stays@customer.test', 'leaves@customer.test'] });
    assert.equal(res.status, 202, res.text);
    await addSuppression(harness().db, account.accountId, 'leaves@customer.test', 'complaint');
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'sent' });
    const [received] = receivedOf(world, res.body.messageId);
    assert.deepEqual(received.envelope.to, ['stays@customer.test']);
    const read = await world.app.call('GET', `/v1/email/emails/${res.body.id}`, { token });
    const states = Object.fromEntries(read.body.recipients.map((r: { email: string }) => [r.email, r]));
    assert.equal(states['stays@customer.test'].state, 'sent');
    assert.equal(states['leaves@customer.test'].state, 'skipped');
    assert.equal(states['leaves@customer.test'].reason, 'complaint');
    const events = await eventRows(account.accountId);
    assert.deepEqual(events.find((e) => e.type === 'email.sent')?.data.recipients, ['stays@customer.test']);
    const suppressed = events.filter((e) => e.type === 'email.suppressed');
    assert.deepEqual(
      suppressed.map((e) => [e.data.recipient, e.data.reason]),
      [['leaves@customer.test', 'complaint']],
    );
  });

  it('an email whose every recipient was suppressed since it was scheduled fails at its time with recipient_suppressed, refunded', async () => {
    const account = await senderAccount();
    const { token, id: keyId } = await emailKey(account.accountId, { dailyCap: 10 });
    const res = await schedule(token, 2);
    assert.equal(res.status, 202, res.text);
    await addSuppression(harness().db, account.accountId, 'jane@customer.test', 'bounce');
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'failed', error_code: 'recipient_suppressed' });
    assert.equal(receivedOf(world, res.body.messageId).length, 0);
    const row = await messageRow(res.body.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.error_code, 'recipient_suppressed');
    assert.equal(row.payload, null, 'the body goes');
    const failed = (await eventRows(account.accountId)).filter((e) => e.type === 'email.failed');
    assert.deepEqual(
      failed.map((e) => e.data.error.code),
      ['recipient_suppressed'],
    );
    const daily = await harness().db('email_key_daily_sends').where({ key_id: keyId }).first('sends');
    assert.equal(daily?.sends ?? 0, 0, 'the daily cap taken at its time was given back');
  });

  it("a test key's scheduled email is stored, readable, and simulated at its time: never relayed, no events", async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await schedule(token, 2);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.test, true);
    assert.equal((await world.app.call('GET', `/v1/email/emails/${res.body.id}`, { token })).body.status, 'scheduled');
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'simulated' });
    const read = await world.app.call('GET', `/v1/email/emails/${res.body.id}`, { token });
    assert.equal(read.body.status, 'simulated');
    assert.ok(read.body.sent_at);
    assert.equal(receivedOf(world, res.body.messageId).length, 0);
    assert.deepEqual(await eventRows(account.accountId), []);
  });

  it("another account's email is 404 on GET, PATCH and cancel, and stays scheduled", async () => {
    const owner = await senderAccount();
    const other = await senderAccount();
    const { token } = await emailKey(owner.accountId);
    const { token: otherToken } = await emailKey(other.accountId);
    const res = await schedule(token, 60);
    const id = res.body.id;
    assertError(await world.app.call('GET', `/v1/email/emails/${id}`, { token: otherToken }), 404, 'email_not_found');
    assertError(
      await world.app.call('PATCH', `/v1/email/emails/${id}`, { token: otherToken, body: { scheduled_at: inSeconds(120) } }),
      404,
      'email_not_found',
    );
    assertError(await world.app.call('POST', `/v1/email/emails/${id}/cancel`, { token: otherToken }), 404, 'email_not_found');
    assertError(await world.app.call('GET', '/v1/email/emails/not-a-uuid', { token }), 404, 'email_not_found');
    assert.equal((await messageRow(id)).status, 'scheduled');
    assert.equal((await world.app.call('POST', `/v1/email/emails/${id}/cancel`, { token })).status, 200);
  });

  it('the routes need email:send', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { scopes: ['email:batch'] });
    const id = '00000000-0000-4000-8000-000000000000';
    assertError(await world.app.call('GET', `/v1/email/emails/${id}`, { token }), 403, 'missing_scope');
    assertError(await world.app.call('POST', `/v1/email/emails/${id}/cancel`, { token }), 403, 'missing_scope');
  });
});
