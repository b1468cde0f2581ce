import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, messageRows, senderAccount, settledEmail, sleep, startSendWorld } from './kit';

describe('POST /v1/email/send: limits', () => {
  it('over the per-second limit the send is 429 rate_limit_exceeded with Retry-After and rate-limit headers', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', ratePerSecond: 2 });
    const first = await call('POST', '/v1/email/send', { token, body: message() });
    const second = await call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(first.status, 200, first.text);
    assert.equal(second.status, 200, second.text);
    assert.equal(first.headers.get('ratelimit-limit'), '2');
    assert.equal(first.headers.get('ratelimit-remaining'), '1');
    assert.equal(second.headers.get('ratelimit-remaining'), '0');

    const refused = await call('POST', '/v1/email/send', { token, body: message() });
    assertError(refused, 429, 'rate_limit_exceeded');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.body.retry_after_seconds, 1);
    assert.equal(refused.headers.get('ratelimit-limit'), '2');
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.ok(refused.headers.get('ratelimit-reset'));

    await sleep(1_050);
    assert.equal(
      (await call('POST', '/v1/email/send', { token, body: message() })).status,
      200,
      'a second later the window has room again',
    );
  });

  it('each replica admits its share of the limit (EMAIL_RATE_REPLICAS)', async () => {
    const world = await startSendWorld({ config: { EMAIL_RATE_REPLICAS: 2 } });
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId, { environment: 'test', ratePerSecond: 4 });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await world.app.call('POST', '/v1/email/send', { token, body: message() })).status);
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      await world.close();
    }
  });

  it("over a live key's daily cap the send is 429 daily_quota_exceeded and nothing is queued or delivered", async () => {
    const world = await startSendWorld();
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId, { dailyCap: 2 });
      const accepted: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
        assert.equal(res.status, 202, res.text);
        accepted.push(res.body.id);
      }
      const refused = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assertError(refused, 429, 'daily_quota_exceeded');
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      for (const id of accepted) assert.equal((await settledEmail(world, token, id)).body.status, 'sent');
      await sleep(200);
      assert.equal(world.smtp.messages.length, 2);
      assert.equal((await messageRows(account.accountId)).length, 2, 'the refused send was never stored');
    } finally {
      await world.close();
    }
  });
});
