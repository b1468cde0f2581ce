import assert from 'node:assert/strict';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, messageRows, senderAccount, settledEmail, sleep, type SendWorld, useSendWorld } from './kit';
import { batchJobSettled } from './queuedKit';

describe('Idempotency-Key on sending', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  /** The messages the relay received with one of these Message-IDs. */
  const receivedOf = (messageIds: string[]) => world.smtp.messages.filter((m) => messageIds.includes(m.parsed.header('message-id') ?? ''));

  it('a send retried with the same Idempotency-Key replays the first response (same id and messageId) and delivers once', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const headers = { 'Idempotency-Key': `send-${Date.now()}` };
    const first = await world.app.call('POST', '/v1/email/send', { token, headers, body: message() });
    const again = await world.app.call('POST', '/v1/email/send', { token, headers, body: message() });
    assert.equal(first.status, 202, first.text);
    assert.equal(again.status, 202, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.body.messageId, first.body.messageId);
    assert.deepEqual(again.body, first.body);
    await settledEmail(world, token, first.body.id);
    await sleep(200);
    assert.equal(receivedOf([first.body.messageId]).length, 1);
    assert.equal((await messageRows(account.accountId)).length, 1);
  });

  it('the same Idempotency-Key with another message is 409 idempotency_key_reused', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const headers = { 'Idempotency-Key': 'reused-key' };
    const first = await world.app.call('POST', '/v1/email/send', { token, headers, body: message() });
    assert.equal(first.status, 202, first.text);
    assertError(
      await world.app.call('POST', '/v1/email/send', { token, headers, body: message({ subject: 'Other' }) }),
      409,
      'idempotency_key_reused',
    );
    await settledEmail(world, token, first.body.id);
    assert.equal((await messageRows(account.accountId)).length, 1);
    assert.equal(world.smtp.messages.length, 1);
  });

  it('a batch retried with the same Idempotency-Key replays its 202 and delivers once', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const headers = { 'Idempotency-Key': 'batch-once' };
    const body = [message(), message({ to: 'other@customer.test' })];
    const first = await world.app.call('POST', '/v1/email/batch', { token, headers, body });
    const again = await world.app.call('POST', '/v1/email/batch', { token, headers, body });
    assert.equal(first.status, 202, first.text);
    assert.equal(again.status, 202, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    await batchJobSettled(account.ownerToken, first.body.job_id);
    await sleep(200);
    assert.equal(receivedOf(first.body.data.map((e: { messageId: string }) => e.messageId)).length, 2);
    assert.equal((await messageRows(account.accountId)).length, 2);
  });

  it('a send without an Idempotency-Key sends again each time', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const a = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    const b = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(a.status, 202, a.text);
    assert.equal(b.status, 202, b.text);
    assert.notEqual(a.body.id, b.body.id);
    assert.notEqual(a.body.messageId, b.body.messageId);
    await settledEmail(world, token, a.body.id);
    await settledEmail(world, token, b.body.id);
    assert.equal(receivedOf([a.body.messageId, b.body.messageId]).length, 2);
  });
});
