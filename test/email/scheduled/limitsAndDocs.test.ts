import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { emailKey, message, senderAccount, settledEmail } from '../send/kit';
import { mostInOneSecond, startQueuedWorld, type QueuedWorld } from '../send/queuedKit';
import { inSeconds, messageRow, receivedOf, scheduledJobSettled } from './kit';
import { dereferencedOpenApi } from '../../helpers/openapiDoc';

describe('scheduled sends: limits at their time', function () {
  this.timeout(60_000);
  let world: QueuedWorld;
  before(async () => {
    world = await startQueuedWorld();
  });
  after(async () => {
    await world.close();
  });

  it("emails scheduled for the same second wait for the key's per-second window", async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { ratePerSecond: 1 });
    const at = inSeconds(2);
    const ids: Array<{ id: string; messageId: string }> = [];
    for (let i = 0; i < 3; i++) {
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ to: `r${i}@customer.test`, scheduled_at: at }) });
      assert.equal(res.status, 202, res.text);
      ids.push(res.body);
    }
    for (const { id } of ids) await scheduledJobSettled(account.ownerToken, account.accountId, id);
    const received = ids.flatMap((e) => receivedOf(world, e.messageId));
    assert.equal(received.length, 3);
    assert.equal(mostInOneSecond(received.map((m) => m.receivedAt)), 1, 'one a second, as the key allows');
  });

  it('over the daily cap at its time: failed with daily_quota_exceeded, not delivered', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { dailyCap: 1 });
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ scheduled_at: inSeconds(2) }) });
    assert.equal(res.status, 202, res.text);
    const now = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(now.status, 202, `scheduling used no quota: ${now.text}`);
    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id);
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'failed', error_code: 'daily_quota_exceeded' });
    assert.equal(receivedOf(world, res.body.messageId).length, 0);
    assert.equal((await messageRow(res.body.id)).error_code, 'daily_quota_exceeded');
    assert.equal((await settledEmail(world, token, now.body.id)).body.status, 'sent');
  });
});

describe('scheduled sends in /openapi.json', () => {
  it('documents scheduled_at, the 202, GET/PATCH /v1/email/emails/{id} and its cancel, with scopes and coded errors', async () => {
    const doc = await dereferencedOpenApi();
    const send = doc.paths['/v1/email/send'].post;
    assert.ok(send.requestBody.content['application/json'].schema.properties.scheduled_at);
    const accepted = send.responses['202'].content['application/json'].schema.anyOf;
    assert.ok(
      accepted.some((s: { properties: { status: { const?: string } } }) => s.properties.status.const === 'scheduled'),
      'the 202 answers a scheduled email',
    );
    const email = doc.paths['/v1/email/emails/{id}'];
    const cancel = doc.paths['/v1/email/emails/{id}/cancel'].post;
    for (const op of [email.get, email.patch, cancel]) assert.deepEqual(op.security, [{ emailKey: ['email:send'] }]);
    assert.ok(email.patch.requestBody.content['application/json'].schema.properties.scheduled_at);
    assert.match(email.patch.responses['409'].description, /email_not_scheduled/);
    assert.match(cancel.responses['409'].description, /email_not_scheduled/);
    assert.match(cancel.responses['404'].description, /email_not_found/);
    assert.match(email.get.responses['200'].content['application/json'].schema.properties.status.description, /scheduled/);
  });
});

describe('the email.scheduled event type', () => {
  it('a webhook endpoint may subscribe to email.scheduled', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { scopes: ['email:webhooks'] });
    const body = { url: 'https://hooks.example.com/email', events: ['email.scheduled', 'email.sent'] };
    const res = await call('POST', '/v1/email/webhooks', { token, body });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.events, ['email.scheduled', 'email.sent']);
  });
});
