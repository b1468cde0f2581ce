import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { assertError, assertFieldError } from '../../marketing/grounding/fixtures';
import { emailKey, eventRows, message, messageRows, senderAccount, type SendWorld, useSendWorld } from './kit';

const batchOf = (n: number) => Array.from({ length: n }, (_, i) => message({ to: `r${i}@customer.test`, subject: `Message ${i}` }));

describe('POST /v1/email/batch', () => {
  it('a batch of 100 messages is accepted with one result per message, in order', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await call('POST', '/v1/email/batch', { token, body: batchOf(100) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.length, 100);
    res.body.data.forEach((entry: { index: number; id: string; messageId: string; status: string }, i: number) => {
      assert.equal(entry.index, i);
      assert.equal(entry.status, 'simulated');
      assert.equal(entry.messageId, `<${entry.id}@mail.example.test>`);
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

  it('each valid message of a live batch is delivered on its own, stored and evented', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/batch', { token, body: [...batchOf(3), message({ to: 'bad' })] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((e: { status?: string }) => e.status),
      ['sent', 'sent', 'sent', undefined],
    );
    const received = await world.smtp.waitForMessages(3);
    assert.deepEqual(received.map((m) => m.envelope.to[0]).sort(), ['r0@customer.test', 'r1@customer.test', 'r2@customer.test']);
    for (const m of received) {
      const entry = res.body.data.find((e: { messageId: string }) => e.messageId === m.parsed.header('message-id'));
      assert.ok(entry, 'each delivered message carries the messageId its result names');
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

  it('a message the relay refuses gets smtp_rejected while the others are sent', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('rcpt', { code: 550, message: 'No such user', recipient: 'r1@customer.test' });
    const res = await world.app.call('POST', '/v1/email/batch', { token, body: batchOf(3) });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data[0].status, 'sent');
    assert.equal(res.body.data[1].error.code, 'smtp_rejected');
    assert.equal(res.body.data[2].status, 'sent');
    assert.equal((await world.smtp.waitForMessages(2)).length, 2);
    const types = (await eventRows(account.accountId)).map((e) => e.type).sort();
    assert.deepEqual(types, ['email.failed', 'email.sent', 'email.sent']);
  });

  it('a live batch without SMTP_URL is 503 smtp_not_configured', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    assertError(await call('POST', '/v1/email/batch', { token, body: batchOf(2) }), 503, 'smtp_not_configured');
  });
});
