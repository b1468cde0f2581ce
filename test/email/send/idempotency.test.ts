import assert from 'node:assert/strict';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, messageRows, senderAccount, sleep, type SendWorld, useSendWorld } from './kit';

describe('Idempotency-Key on sending', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  it('a send retried with the same Idempotency-Key replays the first response (same messageId) and delivers once', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const headers = { 'Idempotency-Key': `send-${Date.now()}` };
    const first = await world.app.call('POST', '/v1/email/send', { token, headers, body: message() });
    const again = await world.app.call('POST', '/v1/email/send', { token, headers, body: message() });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.body.messageId, first.body.messageId);
    await sleep(200);
    assert.equal(world.smtp.messages.length, 1);
    assert.equal((await messageRows(account.accountId)).length, 1);
  });

  it('the same Idempotency-Key with another message is 409 idempotency_key_reused', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const headers = { 'Idempotency-Key': 'reused-key' };
    assert.equal((await world.app.call('POST', '/v1/email/send', { token, headers, body: message() })).status, 200);
    assertError(
      await world.app.call('POST', '/v1/email/send', { token, headers, body: message({ subject: 'Other' }) }),
      409,
      'idempotency_key_reused',
    );
    assert.equal(world.smtp.messages.length, 1);
  });

  it('a batch retried with the same Idempotency-Key replays its results and delivers once', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const headers = { 'Idempotency-Key': 'batch-once' };
    const body = [message(), message({ to: 'other@customer.test' })];
    const first = await world.app.call('POST', '/v1/email/batch', { token, headers, body });
    const again = await world.app.call('POST', '/v1/email/batch', { token, headers, body });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(again.body, first.body);
    await sleep(200);
    assert.equal(world.smtp.messages.length, 2);
  });

  it('a send without an Idempotency-Key sends again each time', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const a = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    const b = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.notEqual(a.body.messageId, b.body.messageId);
    assert.equal((await world.smtp.waitForMessages(2)).length, 2);
  });
});
