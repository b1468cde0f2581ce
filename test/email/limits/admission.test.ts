import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { assertError } from '../../marketing/grounding/fixtures';
import type { AuthContext } from '../../../src/auth/types';
import { emailRuntime } from '../../../src/email/keys/runtime';
import { admitSends } from '../../../src/email/limits/admit';
import { dailySends, secondsUntilUtcMidnight } from '../../../src/email/limits/dailyCap';
import { flushUsage } from '../../../src/email/usage/record';
import { newEmailKey, startKeyApp, type KeyApp } from '../keys/kit';

describe('email limits through a route', () => {
  let account: TestAccount;
  let app: KeyApp;
  before(async () => {
    app = await startKeyApp();
  });
  after(async () => {
    await app.close();
  });
  beforeEach(async () => {
    account = await newAccount();
  });

  it('over the per-second limit answers 429 rate_limit_exceeded with Retry-After and rate-limit headers', async () => {
    const { token } = await newEmailKey(account.accountId, { ratePerSecond: 3 });
    // Sent together, so that all four fall within one second however slow the machine: three are admitted.
    const results = await Promise.all([0, 1, 2, 3].map(() => app.probe(token)));
    const admitted = results.filter((r) => r.status === 200);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 200, 200, 429]);
    assert.deepEqual(admitted.map((r) => r.headers.get('ratelimit-remaining')).sort(), ['0', '1', '2']);
    assert.equal(admitted[0].headers.get('ratelimit-limit'), '3');
    assert.equal(admitted[0].headers.get('ratelimit-reset'), '1');
    const refused = results.find((r) => r.status === 429)!;
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assertError(refused, 429, 'rate_limit_exceeded');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.equal(refused.body.retry_after_seconds, 1);
    assert.equal(refused.headers.get('ratelimit-limit'), '3');
  });

  it('a batch is admitted whole or refused whole', async () => {
    const { token } = await newEmailKey(account.accountId, { ratePerSecond: 5, scopes: ['email:batch'] });
    assert.equal((await app.probe(token, { scope: 'batch', count: 4 })).status, 200);
    assertError(await app.probe(token, { scope: 'batch', count: 2 }), 429, 'rate_limit_exceeded');
    const one = await app.probe(token, { scope: 'batch', count: 1 });
    assert.equal(one.status, 200, 'the refused batch of 2 took no slot');
    assert.equal(one.headers.get('ratelimit-remaining'), '0');
  });

  it("with EMAIL_RATE_REPLICAS = 2 a replica admits half of the key's limit", async () => {
    const shared = await startKeyApp({ EMAIL_RATE_REPLICAS: 2 });
    try {
      const { token } = await newEmailKey(account.accountId, { ratePerSecond: 5 });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await shared.probe(token)).status);
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      await shared.close();
    }
  });

  it('a raised limit applies to the next request', async () => {
    const { key, token } = await newEmailKey(account.accountId, { ratePerSecond: 1 });
    assert.equal((await app.probe(token)).status, 200);
    assertError(await app.probe(token), 429, 'rate_limit_exceeded');
    await app.call('PATCH', `/api/email/keys/${key.id}`, { token: account.ownerToken, body: { rate_per_second: 3 } });
    assert.equal((await app.probe(token)).status, 200);
  });

  it('over the daily cap a live key answers 429 daily_quota_exceeded with Retry-After until UTC midnight', async () => {
    const { key, token } = await newEmailKey(account.accountId, { environment: 'live', dailyCap: 3, ratePerSecond: 100 });
    assert.equal((await app.probe(token, { count: 2 })).status, 200);
    assertError(await app.probe(token, { count: 2 }), 429, 'daily_quota_exceeded');
    const last = await app.probe(token, { count: 1 });
    assert.equal(last.status, 200, 'a refused batch takes nothing from the cap');
    const refused = await app.probe(token);
    assertError(refused, 429, 'daily_quota_exceeded');
    const retryAfter = Number(refused.headers.get('retry-after'));
    const expected = secondsUntilUtcMidnight(new Date());
    assert.ok(retryAfter >= 1 && Math.abs(retryAfter - expected) <= 2, `${retryAfter} vs ${expected}`);
    assert.equal(await dailySends(harness().db, key.id, new Date()), 3);
    assert.equal(refused.headers.get('ratelimit-remaining'), '97', 'the refused send gave its per-second slot back');
  });

  it('a test key uses no daily quota', async () => {
    const { key, token } = await newEmailKey(account.accountId, { environment: 'test', dailyCap: 1, ratePerSecond: 100 });
    for (let i = 0; i < 3; i++) assert.equal((await app.probe(token)).status, 200);
    assert.equal(await dailySends(harness().db, key.id, new Date()), 0);
  });

  it('the daily cap is exact under concurrent admissions from two replicas', async () => {
    const cap = 25;
    const { key } = await newEmailKey(account.accountId, { environment: 'live', dailyCap: cap, ratePerSecond: 10_000 });
    const base = harness().deps;
    const replicas = [{ ...base }, { ...base }];
    const auths = await Promise.all(
      replicas.map(async (deps) => {
        const live = await emailRuntime(deps).keyring.get(key.id);
        return {
          kind: 'emailKey',
          accountId: account.accountId,
          keyId: key.id,
          environment: 'live',
          scopes: ['email:send'],
          key: live!,
        } as AuthContext;
      }),
    );
    try {
      const attempts = Array.from({ length: 60 }, (_, i) =>
        admitSends(replicas[i % 2], auths[i % 2], 1).then(
          () => true,
          (err) => {
            assert.equal(err.code, 'daily_quota_exceeded');
            return false;
          },
        ),
      );
      const admitted = (await Promise.all(attempts)).filter(Boolean).length;
      assert.equal(admitted, cap);
      assert.equal(await dailySends(base.db, key.id, new Date()), cap);
    } finally {
      await Promise.all(replicas.map((deps) => emailRuntime(deps).close()));
    }
  });

  it("refusals count as rate-limit hits in the key's usage", async () => {
    const { key, token } = await newEmailKey(account.accountId, { ratePerSecond: 1 });
    await app.probe(token);
    await app.probe(token);
    await app.probe(token);
    await flushUsage();
    const res = await app.call('GET', `/api/email/keys/${key.id}`, { token: account.ownerToken });
    assert.equal(res.body.usage.rate_limit_hits, 2, res.text);
    assert.equal(res.body.usage.sends_lifetime, 1);
  });

  it('POST /v1/email/send over the per-second limit answers 429 with Retry-After, and successful sends carry the rate-limit headers', async () => {
    await harness().db('email_domains').insert({
      account_id: account.accountId,
      name: 'limits.example.com',
      status: 'verified',
      verification_token: 't',
      verified_at: new Date(),
    });
    const { token } = await newEmailKey(account.accountId, { ratePerSecond: 2 });
    const send = () =>
      call('POST', '/v1/email/send', { token, body: { from: 'a@limits.example.com', to: 'b@example.org', subject: 'hi', text: 'hello' } });
    const first = await send();
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers.get('ratelimit-limit'), '2');
    assert.equal(first.headers.get('ratelimit-remaining'), '1');
    await send();
    const refused = await send();
    assertError(refused, 429, 'rate_limit_exceeded');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
  });
});
