import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { assertError, assertFieldError } from '../../marketing/grounding/fixtures';
import { emailKey, eventRows, message, messageRows, senderAccount, settledEmail, type SendWorld, useSendWorld } from './kit';
import { batchJobSettled } from './queuedKit';

const batchOf = (n: number) => Array.from({ length: n }, (_, i) => message({ to: `r${i}@customer.test`, subject: `Message ${i}` }));

describe('POST /v1/email/batch', () => {
  it('a batch of 100 messages is accepted with one result per message, in order, each with its recipients', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await call('POST', '/v1/email/batch', { token, body: batchOf(100) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.length, 100);
    res.body.data.forEach((entry: { index: number; id: string; messageId: string; status: string; recipients: unknown }, i: number) => {
      assert.equal(entry.index, i);
      assert.equal(entry.status, 'simulated');
      assert.equal(entry.messageId, `<${entry.id}@mail.example.test>`);
      assert.deepEqual(entry.recipients, [{ email: `r${i}@customer.test`, type: 'to', state: 'simulated' }]);
    });
    assert.equal(new Set(res.body.data.map((e: { id: string }) => e.id)).size, 100);
  });

  it('a batch of 101 messages is 400 batch_too_large and sends nothing', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', ratePerSecond: 101 });
    assertError(await call('POST', '/v1/email/batch', { token, body: batchOf(101) }), 400, 'batch_too_large');
    // Nothing was admitted: the whole per-second allowance is still there.
    assert.equal((await call('POST', '/v1/email/batch', { token, body: batchOf(100) })).status, 200);
  });

  it('a body that is not an array of 1 or more messages is 400 validation_failed', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    assertFieldError(await call('POST', '/v1/email/batch', { token, body: message() }), 'body');
    assertFieldError(await call('POST', '/v1/email/batch', { token, body: [] }), 'body');
  });

  it('a message that fails its own checks gets an error result while the others go on', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await call('POST', '/v1/email/batch', {
      token,
      body: [
        message(),
        message({ to: 'broken' }),
        message({ from: 'x@unverified.example.test' }),
        'not even an object',
        message({ text: undefined, template: { name: 'no-such-template' } }),
        message({ to: 'last@customer.test' }),
      ],
    });
    assert.equal(res.status, 200, res.text);
    const [first, badTo, badDomain, notObject, badTemplate, last] = res.body.data;
    assert.equal(first.status, 'simulated');
    assert.equal(badTo.index, 1);
    assert.equal(badTo.error.code, 'validation_failed');
    assert.deepEqual(
      badTo.error.errors.map((e: { path: string }) => e.path),
      ['body.1.to'],
    );
    assert.equal(badDomain.error.code, 'domain_not_verified');
    assert.equal(notObject.error.code, 'validation_failed');
    assert.equal(badTemplate.error.code, 'template_not_found');
    assert.equal(last.index, 5);
    assert.equal(last.status, 'simulated');
  });

  it('a batch where every message fails answers 200 with an error for each', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await call('POST', '/v1/email/batch', { token, body: [message({ to: 'x' }), message({ subject: '' })] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((e: { error: { code: string } }) => e.error.code),
      ['validation_failed', 'validation_failed'],
    );
  });

  it('the limiter admits the valid messages together or refuses the whole batch with 429', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', ratePerSecond: 3 });
    const first = await call('POST', '/v1/email/batch', { token, body: [message(), message({ to: 'nope' }), message()] });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get('ratelimit-remaining'), '1', 'only the 2 valid messages were admitted');
    const refused = await call('POST', '/v1/email/batch', { token, body: [message(), message()] });
    assertError(refused, 429, 'rate_limit_exceeded');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.headers.get('ratelimit-remaining'), '1', 'the refused batch took nothing');
  });
});

describe('POST /v1/email/batch with a live key', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  type Entry = { index: number; id?: string; messageId?: string; status?: string; recipients?: unknown; error?: { code: string } };

  it('a live batch, however small, is 202 with the batch, its job and every valid message queued; each is then delivered on its own, stored and evented', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/batch', { token, body: [...batchOf(3), message({ to: 'bad' })] });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.object, 'batch');
    assert.match(res.body.job_id, new RegExp(`^email-batch:${account.accountId}:${res.body.id}$`));
    const data: Entry[] = res.body.data;
    assert.deepEqual(
      data.map((e) => e.status),
      ['queued', 'queued', 'queued', undefined],
    );
    assert.deepEqual(data[1].recipients, [{ email: 'r1@customer.test', type: 'to', state: 'queued' }]);
    assert.equal(data[3].error?.code, 'validation_failed');

    const job = await batchJobSettled(account.ownerToken, res.body.job_id);
    assert.deepEqual(job.body.result, { batch_id: res.body.id, total: 3, sent: 3, failed: 0, deferred: 0 });
    const received = await world.smtp.waitForMessages(3);
    assert.deepEqual(received.map((m) => m.envelope.to[0]).sort(), ['r0@customer.test', 'r1@customer.test', 'r2@customer.test']);
    for (const m of received) {
      const entry = data.find((e) => e.messageId === m.parsed.header('message-id'));
      assert.ok(entry, 'each delivered message carries the messageId its result names');
    }
    for (const entry of data.slice(0, 3)) {
      const settled = await settledEmail(world, token, entry.id!);
      assert.equal(settled.body.status, 'sent');
      assert.equal(settled.body.batch_id, res.body.id);
    }
    assert.deepEqual(
      (await messageRows(account.accountId)).map((r) => r.status),
      ['sent', 'sent', 'sent'],
    );
    assert.deepEqual(
      (await eventRows(account.accountId)).map((e) => e.type),
      ['email.sent', 'email.sent', 'email.sent'],
    );
  });

  it('a recipient the relay refuses at RCPT fails its message (smtp_rejected, the address bounced and suppressed) while the others are sent', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('rcpt', { code: 550, message: '5.1.1 No such user', recipient: 'r1@customer.test' });
    const res = await world.app.call('POST', '/v1/email/batch', { token, body: batchOf(3) });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(
      res.body.data.map((e: Entry) => e.status),
      ['queued', 'queued', 'queued'],
      'the relay answers after the request: every valid message is accepted',
    );
    const job = await batchJobSettled(account.ownerToken, res.body.job_id);
    assert.deepEqual(job.body.result, { batch_id: res.body.id, total: 3, sent: 2, failed: 1, deferred: 0 });
    const [first, refused, last] = await Promise.all(res.body.data.map((e: Entry) => settledEmail(world, token, e.id!)));
    assert.equal(first.body.status, 'sent');
    assert.equal(last.body.status, 'sent');
    assert.equal(refused.body.status, 'failed');
    assert.equal(refused.body.error_code, 'smtp_rejected');
    assert.equal(refused.body.recipients[0].state, 'bounced');
    assert.equal(refused.body.recipients[0].detail.smtp_code, 550);
    assert.equal((await world.smtp.waitForMessages(2)).length, 2);
    const types = (await eventRows(account.accountId)).map((e) => e.type).sort();
    assert.deepEqual(types, ['email.bounced', 'email.failed', 'email.sent', 'email.sent']);
    const suppression = await harness().db('email_suppressions').where({ account_id: account.accountId }).first();
    assert.equal(suppression?.email, 'r1@customer.test');
  });

  it('a live batch without SMTP_URL is 503 smtp_not_configured', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    assertError(await call('POST', '/v1/email/batch', { token, body: batchOf(2) }), 503, 'smtp_not_configured');
  });
});
