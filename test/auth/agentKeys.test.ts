import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAccount, newUser, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';

const KEY_FIELDS = ['created_at', 'id', 'last_used_at', 'name', 'permissions', 'read_only', 'revoked_at', 'token_hint'];

async function keysOf(accountId: string): Promise<number> {
  const [{ count }] = await harness().db('agent_keys').where({ account_id: accountId }).count<{ count: number }[]>('* as count');
  return Number(count);
}

describe('agent keys', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await newAccount();
  });

  const create = (body: unknown, token = account.ownerToken) => call('POST', '/api/agent-keys', { token, body });

  it('creating a key answers 201 with the key and its token, which works at once', async () => {
    const res = await create({
      name: 'writer bot',
      permissions: ['marketing.content:read', 'marketing.content:read', 'crm:read'],
      read_only: true,
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), [...KEY_FIELDS, 'token'].sort());
    assert.match(res.body.token, /^wyk_/);
    assert.equal(res.body.token_hint, res.body.token.slice(-4));
    assert.deepEqual(res.body.permissions, ['marketing.content:read', 'crm:read'], 'duplicates are dropped');
    assert.equal(res.body.read_only, true);
    assert.equal(res.body.revoked_at, null);

    const me = await call('GET', '/api/agent/me', { token: res.body.token });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, {
      account_id: account.accountId,
      key: { id: res.body.id, name: 'writer bot', permissions: ['marketing.content:read', 'crm:read'], read_only: true },
    });
  });

  it('read_only defaults to false', async () => {
    const res = await create({ name: 'k', permissions: ['crm:read'] });
    assert.equal(res.body.read_only, false);
  });

  it('an unknown permission answers 400 naming it, and no key is created', async () => {
    const res = await create({ name: 'k', permissions: ['crm:read', 'crm:delete_everything'] });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.equal(res.body.errors[0].path, 'body.permissions.1');
    assert.match(res.body.errors[0].message, /crm:delete_everything/);
    assert.equal(await keysOf(account.accountId), 1, "only the account's default key");
  });

  it('a key without permissions, without a name, or with an unknown field answers 400', async () => {
    for (const body of [
      { name: 'k', permissions: [] },
      { permissions: ['crm:read'] },
      { name: 'k', permissions: ['crm:read'], scopes: ['x'] },
    ]) {
      const res = await create(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
    }
    assert.equal(await keysOf(account.accountId), 1);
  });

  it('listing keys never returns a token: only token_hint and the public fields, newest first', async () => {
    const first = await create({ name: 'first', permissions: ['crm:read'] });
    const second = await create({ name: 'second', permissions: ['jobs:read'] });
    const res = await call('GET', '/api/agent-keys', { token: account.ownerToken });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.slice(0, 2).map((k: { id: string }) => k.id),
      [second.body.id, first.body.id],
    );
    assert.equal(res.body.total, 3);
    for (const key of res.body.data) assert.deepEqual(Object.keys(key).sort(), KEY_FIELDS);
    for (const token of [first.body.token, second.body.token, account.agentKey]) {
      assert.ok(!res.text.includes(token), 'a token leaked into the list');
      assert.ok(!res.text.includes(token.slice(4, -4)), 'part of a token leaked into the list');
    }
    assert.equal(res.body.data[0].token_hint, second.body.token.slice(-4));
  });

  it('an admin manages keys; a member may not list, create or revoke them', async () => {
    const admin = await newUser(account.accountId, 'admin');
    const member = await newUser(account.accountId, 'member');
    const created = await create({ name: 'k', permissions: ['crm:read'] }, admin.token);
    assert.equal(created.status, 201);
    for (const [method, path] of [
      ['GET', '/api/agent-keys'],
      ['POST', '/api/agent-keys'],
      ['DELETE', `/api/agent-keys/${created.body.id}`],
    ]) {
      const res = await call(method, path, {
        token: member.token,
        body: method === 'POST' ? { name: 'm', permissions: ['crm:read'] } : undefined,
      });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'forbidden_role');
    }
    assert.equal((await call('DELETE', `/api/agent-keys/${created.body.id}`, { token: admin.token })).status, 200);
  });

  it('revoking answers 200 with revoked_at, the key answers 401 at once, and it stays listed', async () => {
    const key = await create({ name: 'k', permissions: ['crm:read'] });
    assert.equal((await call('GET', '/api/agent/me', { token: key.body.token })).status, 200);
    const res = await call('DELETE', `/api/agent-keys/${key.body.id}`, { token: account.ownerToken });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), KEY_FIELDS);
    assert.ok(res.body.revoked_at && !Number.isNaN(Date.parse(res.body.revoked_at)));
    const after = await call('GET', '/api/agent/me', { token: key.body.token });
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'invalid_credentials');
    const list = await call('GET', '/api/agent-keys', { token: account.ownerToken });
    assert.equal(list.body.data.find((k: { id: string }) => k.id === key.body.id).revoked_at, res.body.revoked_at);
  });

  it('revoking twice is fine and keeps the first revoked_at', async () => {
    const key = await create({ name: 'k', permissions: ['crm:read'] });
    const first = await call('DELETE', `/api/agent-keys/${key.body.id}`, { token: account.ownerToken });
    const second = await call('DELETE', `/api/agent-keys/${key.body.id}`, { token: account.ownerToken });
    assert.equal(second.status, 200);
    assert.equal(second.body.revoked_at, first.body.revoked_at);
  });

  it("revoking another account's key answers 404 agent_key_not_found and the key keeps working", async () => {
    const other = await newAccount();
    const theirs = await create({ name: 'theirs', permissions: ['crm:read'] }, other.ownerToken);
    const res = await call('DELETE', `/api/agent-keys/${theirs.body.id}`, { token: account.ownerToken });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'agent_key_not_found');
    assert.equal((await call('GET', '/api/agent/me', { token: theirs.body.token })).status, 200);
  });

  it('revoking an id that does not exist answers 404 agent_key_not_found; a malformed id answers 400', async () => {
    const missing = await call('DELETE', `/api/agent-keys/${randomUUID()}`, { token: account.ownerToken });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'agent_key_not_found');
    const malformed = await call('DELETE', '/api/agent-keys/not-a-uuid', { token: account.ownerToken });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'validation_failed');
  });

  it("another account's keys are not listed", async () => {
    const other = await newAccount();
    const theirs = await create({ name: 'theirs', permissions: ['crm:read'] }, other.ownerToken);
    const res = await call('GET', '/api/agent-keys?limit=100', { token: account.ownerToken });
    assert.ok(!res.body.data.some((k: { id: string }) => k.id === theirs.body.id));
    assert.equal(res.body.total, 1);
  });

  it('GET /api/agent/me needs no permission and works for a read-only key', async () => {
    const key = await create({ name: 'reader', permissions: ['jobs:read'], read_only: true });
    const res = await call('GET', '/api/agent/me', { token: key.body.token });
    assert.equal(res.status, 200);
    assert.equal(res.body.key.read_only, true);
    assert.ok(!res.text.includes(key.body.token));
  });
});
