import assert from 'node:assert/strict';
import { newAccount, newUser, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';

const USER_FIELDS = ['created_at', 'email', 'id', 'name', 'role'];

async function usersOf(accountId: string): Promise<number> {
  const [{ count }] = await harness().db('users').where({ account_id: accountId }).count<{ count: number }[]>('* as count');
  return Number(count);
}

describe('account users', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await newAccount();
  });

  it('an owner adds a user: 201 with the user and a session token that works at once', async () => {
    const res = await call('POST', '/api/users', {
      token: account.ownerToken,
      body: { email: 'dana@example.test', name: 'Dana', role: 'member' },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['session_token', 'user']);
    assert.deepEqual(Object.keys(res.body.user).sort(), USER_FIELDS);
    assert.equal(res.body.user.email, 'dana@example.test');
    assert.equal(res.body.user.role, 'member');
    assert.match(res.body.session_token, /^wys_/);
    const me = await call('GET', '/api/me', { token: res.body.session_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.id, res.body.user.id);
    assert.equal(me.body.account.id, account.accountId);
  });

  it('an admin may add users, including admins', async () => {
    const admin = await newUser(account.accountId, 'admin');
    const res = await call('POST', '/api/users', { token: admin.token, body: { email: 'eve@example.test', name: 'Eve', role: 'admin' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.user.role, 'admin');
  });

  it('a member may not add users: 403 forbidden_role and nothing is written', async () => {
    const member = await newUser(account.accountId, 'member');
    const before = await usersOf(account.accountId);
    const res = await call('POST', '/api/users', { token: member.token, body: { email: 'no@example.test', name: 'No', role: 'member' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'forbidden_role');
    assert.equal(await usersOf(account.accountId), before);
  });

  it('the owner role cannot be granted: 400 validation_failed naming role', async () => {
    const res = await call('POST', '/api/users', {
      token: account.ownerToken,
      body: { email: 'own@example.test', name: 'Own', role: 'owner' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['body.role'],
    );
    assert.equal(await usersOf(account.accountId), 1);
  });

  it('a malformed email or a missing name answers 400 validation_failed', async () => {
    const res = await call('POST', '/api/users', { token: account.ownerToken, body: { email: 'not-an-email', role: 'member' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors.map((e: { path: string }) => e.path).sort(), ['body.email', 'body.name']);
  });

  it('an email already in the account, in any case, answers 409 user_email_taken', async () => {
    const body = { email: 'Sam@Example.test', name: 'Sam', role: 'member' };
    assert.equal((await call('POST', '/api/users', { token: account.ownerToken, body })).status, 201);
    const res = await call('POST', '/api/users', { token: account.ownerToken, body: { ...body, email: 'sam@example.TEST' } });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'user_email_taken');
    assert.equal(await usersOf(account.accountId), 2);
  });

  it('the same email may exist in another account', async () => {
    const other = await newAccount();
    const body = { email: 'shared@example.test', name: 'Shared', role: 'member' };
    assert.equal((await call('POST', '/api/users', { token: account.ownerToken, body })).status, 201);
    assert.equal((await call('POST', '/api/users', { token: other.ownerToken, body })).status, 201);
  });

  it("GET /api/users lists the account's users oldest first, without tokens, to any role", async () => {
    const member = await newUser(account.accountId, 'member');
    const created = await call('POST', '/api/users', {
      token: account.ownerToken,
      body: { email: 'li@example.test', name: 'Li', role: 'admin' },
    });
    await newUser((await newAccount()).accountId, 'member'); // another account's user must not show up
    const res = await call('GET', '/api/users', { token: member.token });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((u: { id: string }) => u.id),
      [account.ownerId, member.userId, created.body.user.id],
    );
    assert.equal(res.body.total, 3);
    assert.equal(res.body.page, 1);
    assert.equal(res.body.limit, 25);
    for (const user of res.body.data) assert.deepEqual(Object.keys(user).sort(), USER_FIELDS);
    assert.ok(!res.text.includes(created.body.session_token));
    assert.ok(!res.text.includes(member.token));
  });

  it('GET /api/users pages with page and limit', async () => {
    const second = await newUser(account.accountId, 'member');
    await newUser(account.accountId, 'member');
    const res = await call('GET', '/api/users?page=2&limit=1', { token: account.ownerToken });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.data.map((u: { id: string }) => u.id),
      [second.userId],
    );
    assert.equal(res.body.total, 3);
    assert.deepEqual([res.body.page, res.body.limit], [2, 1]);
  });

  it('a limit over 100, a page below 1 or an unknown query field answers 400', async () => {
    for (const query of ['limit=101', 'page=0', 'limit=abc', 'sort=name']) {
      const res = await call('GET', `/api/users?${query}`, { token: account.ownerToken });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.code, 'validation_failed');
    }
  });
});
