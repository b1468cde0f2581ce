import assert from 'node:assert/strict';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { assertError } from '../../marketing/grounding/fixtures';
import { revokeEmailKey } from '../../../src/email/keys/service';
import { Gate, gates, listening, newEmailKey, startKeyApp, type KeyApp } from './kit';

describe('email keys: authentication', () => {
  let account: TestAccount;
  let replicaA: KeyApp;
  let replicaB: KeyApp;
  before(async () => {
    [replicaA, replicaB] = await Promise.all([startKeyApp(), startKeyApp()]);
    await Promise.all([listening(replicaA), listening(replicaB)]);
  });
  after(async () => {
    await Promise.all([replicaA.close(), replicaB.close()]);
  });
  beforeEach(async () => {
    account = await newAccount();
  });

  it('a valid key authenticates', async () => {
    const { token } = await newEmailKey(account.accountId);
    const res = await replicaA.probe(token);
    assert.equal(res.status, 200, res.text);
  });

  it('a missing, malformed or unknown key answers 401 invalid_api_key; a valid credential of another kind 401 wrong_credential_kind', async () => {
    const { token } = await newEmailKey(account.accountId);
    const unknown = `svc_test_${'0'.repeat(32)}${token.slice(41)}`;
    const wrongEnv = token.replace('svc_test_', 'svc_live_');
    for (const bad of [undefined, 'svc_test_short', `wyk_${token.slice(9)}`, `${token}x`, unknown, wrongEnv]) {
      assertError(await replicaA.probe(bad as string), 401, 'invalid_api_key');
    }
    for (const other of [account.agentKey, account.ownerToken]) {
      assertError(await replicaA.probe(other), 401, 'wrong_credential_kind');
    }
    assertError(
      await replicaA.call('POST', '/test/email/probe/send', { headers: { authorization: `Basic ${token}` }, body: {} }),
      401,
      'invalid_api_key',
    );
  });

  it('a wrong secret answers 401 invalid_api_key and counts a failed attempt on the key', async () => {
    const { key, token } = await newEmailKey(account.accountId);
    const wrong = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    assertError(await replicaA.probe(wrong), 401, 'invalid_api_key');
    assertError(await replicaA.probe(wrong), 401, 'invalid_api_key');
    const usage = await replicaA.call('GET', `/api/email/keys/${key.id}`, { token: account.ownerToken });
    assert.equal(usage.body.usage.failed_auth_attempts, 2, usage.text);
  });

  it("a key without the route's scope answers 403 missing_scope", async () => {
    const { token } = await newEmailKey(account.accountId, { scopes: ['email:send'] });
    assert.equal((await replicaA.probe(token, { scope: 'send' })).status, 200);
    assertError(await replicaA.probe(token, { scope: 'batch' }), 403, 'missing_scope');
    const batchOnly = await newEmailKey(account.accountId, { scopes: ['email:batch'] });
    assertError(await replicaA.probe(batchOnly.token, { scope: 'send' }), 403, 'missing_scope');
  });

  it("a request from outside the key's IP allowlist answers 403 ip_not_allowed", async () => {
    const { token } = await newEmailKey(account.accountId, { allowedIps: ['203.0.113.0/24', '2001:db8::/32'] });
    // Sources other than loopback reach the test app only as X-Forwarded-For from a trusted (loopback) proxy.
    const behindProxy = await startKeyApp({ TRUST_PROXY: { proxies: ['127.0.0.0/8', '::1/128'] } });
    try {
      const from = (ip: string) => behindProxy.probe(token, { headers: { 'x-forwarded-for': ip } });
      assert.equal((await from('203.0.113.9')).status, 200);
      assert.equal((await from('2001:db8::7')).status, 200);
      assert.equal((await from('::ffff:203.0.113.200')).status, 200);
      assertError(await from('203.0.114.1'), 403, 'ip_not_allowed');
      assertError(await from('2001:db9::1'), 403, 'ip_not_allowed');
      assertError(await behindProxy.probe(token), 403, 'ip_not_allowed'); // loopback itself is not listed
    } finally {
      await behindProxy.close();
    }
  });

  it('a revoked key answers 401 api_key_revoked at once on this replica', async () => {
    const { key, token } = await newEmailKey(account.accountId);
    assert.equal((await replicaA.probe(token)).status, 200);
    const revoked = await replicaA.call('POST', `/api/email/keys/${key.id}/revoke`, { token: account.ownerToken });
    assert.equal(revoked.status, 200);
    assertError(await replicaA.probe(token), 401, 'api_key_revoked');
  });

  it('a revoked key answers 401 at once on another replica too (Postgres NOTIFY)', async () => {
    const { key, token } = await newEmailKey(account.accountId);
    assert.equal((await replicaB.probe(token)).status, 200, 'replica B has the key cached (trusted for 60 s)');
    assert.equal((await replicaB.probe(token)).status, 200);
    await replicaA.call('POST', `/api/email/keys/${key.id}/revoke`, { token: account.ownerToken });
    const started = Date.now();
    let res = await replicaB.probe(token);
    while (res.status === 200 && Date.now() - started < 2_000) res = await replicaB.probe(token);
    assertError(res, 401, 'api_key_revoked');
    assert.ok(Date.now() - started < 2_000, 'well within the 60-second cache bound');
  });

  it('a request in flight when its key is revoked answers 401 (this replica)', async () => {
    const { key, token } = await newEmailKey(account.accountId);
    const gate = new Gate();
    gates.set('same', gate);
    const pending = replicaA.probe(token, { gate: 'same' });
    await gate.entered; // authenticated, now inside the handler
    await revokeEmailKey(replicaA.deps, account.accountId, key.id);
    gate.release();
    assertError(await pending, 401, 'api_key_revoked');
  });

  it('a request in flight on another replica sees the revocation through its key handle', async () => {
    const { key, token } = await newEmailKey(account.accountId);
    const gate = new Gate();
    gates.set('other', gate);
    const pending = replicaB.probe(token, { gate: 'other' });
    await gate.entered;
    await replicaA.call('POST', `/api/email/keys/${key.id}/revoke`, { token: account.ownerToken });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the notification reaches B
    gate.release();
    assertError(await pending, 401, 'api_key_revoked');
  });

  it('a patched allowlist applies at once on every replica', async () => {
    const { key, token } = await newEmailKey(account.accountId);
    assert.equal((await replicaB.probe(token)).status, 200);
    await replicaA.call('PATCH', `/api/email/keys/${key.id}`, { token: account.ownerToken, body: { allowed_ips: ['192.0.2.1'] } });
    const started = Date.now();
    let res = await replicaB.probe(token);
    while (res.status === 200 && Date.now() - started < 2_000) res = await replicaB.probe(token);
    assertError(res, 403, 'ip_not_allowed');
  });

  it('a rotated key stops working at once and its replacement works', async () => {
    const { key, token } = await newEmailKey(account.accountId);
    const rotated = await replicaA.call('POST', `/api/email/keys/${key.id}/rotate`, { token: account.ownerToken });
    assertError(await replicaA.probe(token), 401, 'api_key_revoked');
    assert.equal((await replicaA.probe(rotated.body.secret)).status, 200);
  });
});

describe('email keys: the key-change listener', () => {
  let app: KeyApp;
  before(async () => {
    app = await startKeyApp();
    await listening(app);
  });
  after(async () => {
    await app.close();
  });

  it('after the listener reconnects the keyring is reloaded, so a change missed meanwhile still applies', async () => {
    const account = await newAccount();
    const { key, token } = await newEmailKey(account.accountId);
    assert.equal((await app.probe(token)).status, 200, 'cached');
    const { db } = app.deps;
    await db.raw(`select pg_terminate_backend(pid) from pg_stat_activity
                  where datname = current_database() and application_name = 'workyard-listener'`);
    // A change whose notification nobody hears: written while the listener is down, without NOTIFY.
    await db('email_keys').where({ id: key.id }).update({ revoked_at: db.fn.now() });
    const started = Date.now();
    let res = await app.probe(token);
    while (res.status === 200 && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      res = await app.probe(token);
    }
    assertError(res, 401, 'api_key_revoked');
    await listening(app);
  });
});
