import assert from 'node:assert/strict';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { flushUsage } from '../../../src/email/usage/record';
import { utcDay } from '../../../src/email/usage/recorder';
import { newEmailKey, startKeyApp, type KeyApp } from './kit';

const DAY = 86_400_000;

describe('email keys: usage', () => {
  let app: KeyApp;
  before(async () => {
    app = await startKeyApp();
  });
  after(async () => {
    await app.close();
  });

  it('usage counters are visible on GET after a flush: last used, sends, rate-limit hits, failed attempts', async () => {
    const account = await newAccount();
    const { key, token } = await newEmailKey(account.accountId, { ratePerSecond: 5, scopes: ['email:send', 'email:batch'] });
    const before = await call('GET', `/api/email/keys/${key.id}`, { token: account.ownerToken });
    assert.deepEqual(before.body.usage, {
      last_used_at: null,
      sends_lifetime: 0,
      sends_last_30_days: 0,
      rate_limit_hits: 0,
      failed_auth_attempts: 0,
    });

    const startedAt = Date.now();
    await app.probe(token, { count: 1 });
    await app.probe(token, { scope: 'batch', count: 3 });
    await app.probe(token, { scope: 'batch', count: 3 }); // 429: only one slot left
    await app.probe(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    await flushUsage();

    const rows = await harness().db('email_key_usage_daily').where({ key_id: key.id });
    assert.deepEqual(
      rows.map((r) => [r.account_id, r.sends, r.rate_limited, r.failed_auth]),
      [[account.accountId, 4, 1, 1]],
      'written',
    );
    const after = await call('GET', `/api/email/keys/${key.id}`, { token: account.ownerToken });
    assert.equal(after.body.usage.sends_lifetime, 4);
    assert.equal(after.body.usage.sends_last_30_days, 4);
    assert.equal(after.body.usage.rate_limit_hits, 1);
    assert.equal(after.body.usage.failed_auth_attempts, 1);
    const lastUsed = Date.parse(after.body.usage.last_used_at);
    assert.ok(lastUsed >= startedAt - 1000 && lastUsed <= Date.now(), after.body.usage.last_used_at);
    assert.equal(after.body.last_used_at, after.body.usage.last_used_at);
    const stored = await harness().db('email_keys').where({ id: key.id }).first('last_used_at');
    assert.ok(stored.last_used_at, 'last_used_at written to the key');
  });

  it('lifetime sends sum every day; the 30-day figure counts today and the 29 days before', async () => {
    const account = await newAccount();
    const { key } = await newEmailKey(account.accountId);
    const { db } = harness();
    const day = (daysAgo: number) => utcDay(new Date(Date.now() - daysAgo * DAY));
    await db('email_key_usage_daily').insert([
      { key_id: key.id, account_id: account.accountId, day: day(0), sends: 1 },
      { key_id: key.id, account_id: account.accountId, day: day(29), sends: 10 },
      { key_id: key.id, account_id: account.accountId, day: day(30), sends: 100 },
      { key_id: key.id, account_id: account.accountId, day: day(400), sends: 1000, rate_limited: 2, failed_auth: 3 },
    ]);
    const res = await call('GET', `/api/email/keys/${key.id}`, { token: account.ownerToken });
    assert.equal(res.body.usage.sends_lifetime, 1111);
    assert.equal(res.body.usage.sends_last_30_days, 11);
    assert.equal(res.body.usage.rate_limit_hits, 2);
    assert.equal(res.body.usage.failed_auth_attempts, 3);
  });

  it('GET shows a send at once, whether or not it is flushed yet (unflushed counts of this process are added)', async () => {
    const account = await newAccount();
    const { key, token } = await newEmailKey(account.accountId);
    // The app's own usage buffer is read directly: no flush in between, and the timer runs only about once a second.
    await app.probe(token, { count: 1 });
    const res = await call('GET', `/api/email/keys/${key.id}`, { token: account.ownerToken });
    assert.equal(res.body.usage.sends_lifetime, 1);
    assert.ok(res.body.usage.last_used_at);
  });
});
