import assert from 'node:assert/strict';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, senderAccount, settledEmail, startSendWorld, type SendWorld } from './kit';

describe('GET /v1/email/messages/{id}', () => {
  let world: SendWorld;

  before(async () => {
    world = await startSendWorld();
  });
  after(async () => {
    await world.close();
  });

  it("shows a live send from its acceptance to its delivery; another account's id, a malformed id and a simulated send are 404", async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const accepted = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(accepted.status, 202, accepted.text);

    const early = await world.app.call('GET', `/v1/email/messages/${accepted.body.id}`, { token });
    assert.equal(early.status, 200, early.text);
    assert.ok(['queued', 'sending', 'sent'].includes(early.body.status), `readable at once: ${early.body.status}`);

    await settledEmail(world, token, accepted.body.id);
    const read = await world.app.call('GET', `/v1/email/messages/${accepted.body.id}`, { token });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, 'sent');
    assert.equal(read.body.messageId, accepted.body.messageId);
    assert.equal(read.body.batch_id, null);
    assert.equal(read.body.attempts, 1);
    assert.equal(read.body.last_error, null);
    assert.ok(read.body.sent_at);
    assert.deepEqual(read.body.to, ['jane@customer.test']);
    assert.deepEqual(
      read.body.recipients.map((r: { email: string; type: string; state: string }) => [r.email, r.type, r.state]),
      [['jane@customer.test', 'to', 'sent']],
    );
    assert.ok(!('payload' in read.body));

    const other = await senderAccount();
    const { token: otherToken } = await emailKey(other.accountId);
    assertError(await world.app.call('GET', `/v1/email/messages/${accepted.body.id}`, { token: otherToken }), 404, 'email_not_found');
    assertError(await world.app.call('GET', '/v1/email/messages/not-a-uuid', { token }), 404, 'email_not_found');

    const { token: testToken } = await emailKey(account.accountId, { environment: 'test' });
    const simulated = await world.app.call('POST', '/v1/email/send', { token: testToken, body: message() });
    assert.equal(simulated.status, 200, simulated.text);
    assertError(await world.app.call('GET', `/v1/email/messages/${simulated.body.id}`, { token: testToken }), 404, 'email_not_found');
  });
});
