import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { assertError } from '../../marketing/grounding/fixtures';
import {
  emailKey,
  eventRows,
  FROM,
  message,
  messageRows,
  SENDER_DOMAIN,
  senderAccount,
  sleep,
  startSendWorld,
  type SendWorld,
} from './kit';

describe('POST /v1/email/send with a test key', () => {
  let world: SendWorld;

  before(async () => {
    world = await startSendWorld();
  });
  after(async () => {
    await world.close();
  });

  it('a test key answers the full response, including messageId, and delivers nothing', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: ['a@customer.test', 'B <b@customer.test>'] }),
    });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(res.body.object, 'email');
    assert.equal(res.body.test, true);
    assert.equal(res.body.status, 'simulated');
    assert.equal(res.body.messageId, `<${res.body.id}@${SENDER_DOMAIN}>`);
    assert.equal(res.body.from, FROM);
    assert.deepEqual(res.body.to, ['a@customer.test', 'B <b@customer.test>']);
    assert.ok(res.body.created_at);
    assert.equal(res.headers.get('ratelimit-limit'), '1000');

    await sleep(200);
    assert.equal(world.smtp.connections, 0, 'the relay was never contacted');
    assert.equal(world.smtp.messages.length, 0);
    assert.deepEqual(await messageRows(account.accountId), [], 'a simulated send stores no message');
    assert.deepEqual(await eventRows(account.accountId), [], 'and emits no event');
  });

  it('a test key uses no quota: its daily cap never refuses and nothing is counted against it', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { environment: 'test', dailyCap: 1 });
    for (let i = 0; i < 3; i++) {
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assert.equal(res.status, 200, res.text);
    }
    assert.equal(await harness().db('email_key_daily_sends').where({ key_id: id }).first(), undefined);
  });

  it('a test key sends without SMTP_URL configured', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'simulated');
  });
});

describe('POST /v1/email/send with a live key and no SMTP_URL', () => {
  it('a live key without a configured relay answers 503 smtp_not_configured and nothing is counted', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { dailyCap: 1, ratePerSecond: 1 });
    for (let i = 0; i < 2; i++) {
      // With a limit of 1 per second, a counted first attempt would make the second a 429.
      assertError(await call('POST', '/v1/email/send', { token, body: message() }), 503, 'smtp_not_configured');
    }
    assert.equal(await harness().db('email_key_daily_sends').where({ key_id: id }).first(), undefined);
    assert.deepEqual(await messageRows(account.accountId), []);
  });
});
