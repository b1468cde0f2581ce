import assert from 'node:assert/strict';
import { AgentKeyCache } from '../../src/auth/agentKeyCache';
import { agentKeyCacheOf } from '../../src/auth/agentKeyRuntime';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';

/** Polls until `check` holds or `ms` pass; answers whether it held. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The API keeps the agent keys it authenticates in memory (src/auth/agentKeyCache.ts) and drops one when the database
 * announces its change, so "revoked: 401 at once" holds on every replica, whichever replica or code path revoked it.
 */
describe('agent-key cache: a revoked or changed key is refused at once, on every replica', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await newAccount();
  });

  async function newKey(permissions = ['crm:read']): Promise<{ id: string; token: string }> {
    const res = await call('POST', '/api/agent-keys', { token: account.ownerToken, body: { name: 'cached bot', permissions } });
    assert.equal(res.status, 201, res.text);
    return { id: res.body.id, token: res.body.token };
  }
  const me = (token: string) => call('GET', '/api/agent/me', { token });

  /** The app's cache listens and keeps this key: what follows is served from memory unless something drops it. */
  async function assertKept(id: string): Promise<void> {
    const cache = agentKeyCacheOf(harness().deps);
    assert.equal(await within(2_000, async () => cache.caching), true, 'the cache listens');
    await cache.get(id);
    const kept = cache.get(id);
    assert.ok(kept && !(kept instanceof Promise) && kept.id === id, 'the key is kept in memory');
  }

  it('a key revoked through the API answers 401 on the very next request, though it was just served from the cache', async () => {
    const key = await newKey();
    assert.equal((await me(key.token)).status, 200);
    await assertKept(key.id);
    const revoked = await call('DELETE', `/api/agent-keys/${key.id}`, { token: account.ownerToken });
    assert.equal(revoked.status, 200, revoked.text);
    const after = await me(key.token);
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'invalid_credentials');
  });

  it('a key revoked by another replica (straight in the database) is refused as soon as the announcement arrives', async () => {
    const key = await newKey();
    assert.equal((await me(key.token)).status, 200);
    await assertKept(key.id);
    await harness().db('agent_keys').where({ id: key.id }).update({ revoked_at: new Date() });
    assert.equal(await within(2_000, async () => (await me(key.token)).status === 401), true, 'refused within 2 s');
  });

  it('a permission taken away by another replica is enforced as soon as the announcement arrives', async () => {
    const key = await newKey(['marketing.content:read']);
    assert.equal((await call('GET', '/api/agent/marketing/content', { token: key.token })).status, 200);
    await assertKept(key.id);
    await harness()
      .db('agent_keys')
      .where({ id: key.id })
      .update({ permissions: ['crm:read'] });
    assert.equal(
      await within(2_000, async () => (await call('GET', '/api/agent/marketing/content', { token: key.token })).status === 403),
      true,
      'refused within 2 s',
    );
  });

  it('a deleted key (its account removed) is refused as soon as the announcement arrives', async () => {
    const key = await newKey();
    assert.equal((await me(key.token)).status, 200);
    await assertKept(key.id);
    await harness().db('agent_keys').where({ id: key.id }).delete();
    assert.equal(await within(2_000, async () => (await me(key.token)).status === 401), true, 'refused within 2 s');
  });

  it('without a listener nothing is kept: every authentication reads the key', async () => {
    const key = await newKey();
    const cache = new AgentKeyCache(harness().db);
    const id = key.id;
    const first = await cache.get(id);
    assert.equal(first?.id, id);
    await harness().db('agent_keys').where({ id }).update({ revoked_at: new Date() });
    const second = await cache.get(id);
    assert.ok(second?.revoked_at, 'the second read sees the revocation: nothing was kept');
  });

  it('a read that was running when the key changed does not keep its older row', async () => {
    const key = await newKey();
    const cache = new AgentKeyCache(harness().db);
    cache.caching = true;
    const running = cache.get(key.id);
    cache.invalidate(key.id);
    await running;
    await harness().db('agent_keys').where({ id: key.id }).update({ revoked_at: new Date() });
    const next = await cache.get(key.id);
    assert.ok(next?.revoked_at, 'the row read before the change was not kept');
  });
});
