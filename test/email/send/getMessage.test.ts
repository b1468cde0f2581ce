import assert from 'node:assert/strict';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, senderAccount, startSendWorld, type SendWorld } from './kit';

describe('GET /v1/email/messages/{id}', () => {
  let world: SendWorld;

  before(async () => {
    world = await startSendWorld();
  });
  after(async () => {
    await world.close();
  });

  it("shows a live send with its status; another account's id, a malformed id and a simulated send are 404", async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const sent = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(sent.status, 200, sent.text);

    const read = await world.app.call('GET', `/v1/email/messages/${sent.body.id}`, { token });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.status, 'sent');
    assert.equal(read.body.messageId, sent.body.messageId);
    assert.equal(read.body.batch_id, null);
    assert.deepEqual(read.body.to, ['jane@customer.test']);
    assert.ok(!('payload' in read.body));

    const other = await senderAccount();
    const { token: otherToken } = await emailKey(other.accountId);
    assertError(await world.app.call('GET', `/v1/email/messages/${sent.body.id}`, { token: otherToken }), 404, 'email_not_found');
    assertError(await world.app.call('GET', '/v1/email/messages/not-a-uuid', { token }), 404, 'email_not_found');

    const { token: testToken } = await emailKey(account.accountId, { environment: 'test' });
    const simulated = await world.app.call('POST', '/v1/email/send', { token: testToken, body: message() });
    assertError(await world.app.call('GET', `/v1/email/messages/${simulated.body.id}`, { token: testToken }), 404, 'email_not_found');
  });
});
