import assert from 'node:assert/strict';
import { assertError } from '../../marketing/grounding/fixtures';
import { eventually } from '../../jobs/jobTestKit';
import { emailKey, eventRows, message, messageRows, senderAccount, sleep, startSendWorld, type SendWorld } from './kit';

/** Revocation through the management route of the same app, as an owner would do it. */
async function revoke(world: SendWorld, ownerToken: string, keyId: string) {
  const res = await world.app.call('POST', `/api/email/keys/${keyId}/revoke`, { token: ownerToken });
  assert.equal(res.status, 200, res.text);
}

describe('revoking an email key and sending', () => {
  let world: SendWorld;

  // Each test gets its own relay, so its pool opens a new connection (the delayed greeting is per connection).
  beforeEach(async () => {
    world = await startSendWorld();
  });
  afterEach(async () => {
    await world.close();
  });

  it('a revoked key answers 401 api_key_revoked at once', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId);
    assert.equal((await world.app.call('POST', '/v1/email/send', { token, body: message() })).status, 200);
    await revoke(world, account.ownerToken, id);
    assertError(await world.app.call('POST', '/v1/email/send', { token, body: message() }), 401, 'api_key_revoked');
    assertError(await world.app.call('POST', '/v1/email/batch', { token, body: [message()] }), 401, 'api_key_revoked');
    assert.equal(world.smtp.messages.length, 1);
  });

  it('a send in flight when its key is revoked answers 401 and delivers nothing (slow relay greeting)', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId);
    world.smtp.greetingDelayMs = 800;
    const inFlight = world.app.call('POST', '/v1/email/send', { token, body: message() });
    // The request has passed authentication, the limiter and the first revocation check: it is at the relay.
    await eventually(
      async () => world.smtp.connections,
      (n) => n >= 1,
      5_000,
      'the relay connection',
    );
    await revoke(world, account.ownerToken, id);

    const res = await inFlight;
    assertError(res, 401, 'api_key_revoked');
    await sleep(300);
    assert.equal(world.smtp.dataReceived, 0, 'the relay never got the end of the message');
    assert.equal(world.smtp.messages.length, 0);
    assert.deepEqual(await messageRows(account.accountId), [], 'a withheld message leaves no row');
    assert.deepEqual(await eventRows(account.accountId), [], 'and no event');
  });

  it('a batch in flight when its key is revoked answers 401 and delivers nothing', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId);
    world.smtp.greetingDelayMs = 800;
    const inFlight = world.app.call('POST', '/v1/email/batch', { token, body: [message(), message({ to: 'second@customer.test' })] });
    await eventually(
      async () => world.smtp.connections,
      (n) => n >= 1,
      5_000,
      'the relay connection',
    );
    await revoke(world, account.ownerToken, id);

    assertError(await inFlight, 401, 'api_key_revoked');
    await sleep(300);
    assert.equal(world.smtp.messages.length, 0);
    assert.deepEqual(await messageRows(account.accountId), []);
  });

  it('a message the relay already committed (final dot sent) is sent even if the key is revoked before the relay answers', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId);
    world.smtp.dataDelayMs = 600;
    const inFlight = world.app.call('POST', '/v1/email/send', { token, body: message() });
    await eventually(
      async () => world.smtp.dataReceived,
      (n) => n >= 1,
      5_000,
      'the end of the message at the relay',
    );
    await revoke(world, account.ownerToken, id);

    const res = await inFlight;
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'sent');
    assert.equal((await world.smtp.waitForMessages(1)).length, 1);
    assert.equal((await messageRows(account.accountId))[0].status, 'sent');
  });
});
