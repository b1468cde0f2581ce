import assert from 'node:assert/strict';
import { createSession } from '../../src/auth/service';
import { newAccount, newUser } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';

describe('the caller and signing out', () => {
  it("GET /api/me answers the caller's user and account", async () => {
    const account = await newAccount('Acme Roofing');
    const res = await call('GET', '/api/me', { token: account.ownerToken });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['account', 'user']);
    assert.equal(res.body.account.id, account.accountId);
    assert.equal(res.body.account.name, 'Acme Roofing');
    assert.equal(res.body.user.id, account.ownerId);
    assert.equal(res.body.user.role, 'owner');
    assert.ok(!Number.isNaN(Date.parse(res.body.user.created_at)));
  });

  it('GET /api/me of a member shows the member, not the owner', async () => {
    const account = await newAccount();
    const member = await newUser(account.accountId, 'member');
    const res = await call('GET', '/api/me', { token: member.token });
    assert.equal(res.body.user.id, member.userId);
    assert.equal(res.body.user.role, 'member');
    assert.equal(res.body.account.id, account.accountId);
  });

  it('DELETE /api/session revokes the token of the request: 204, then 401 at once', async () => {
    const account = await newAccount();
    const member = await newUser(account.accountId, 'member');
    assert.equal((await call('GET', '/api/me', { token: member.token })).status, 200);
    const res = await call('DELETE', '/api/session', { token: member.token });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    const after = await call('GET', '/api/me', { token: member.token });
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'invalid_credentials');
    assert.equal((await call('DELETE', '/api/session', { token: member.token })).status, 401, 'signing out twice is 401');
  });

  it("signing out leaves the user's other sessions valid", async () => {
    const account = await newAccount();
    const member = await newUser(account.accountId, 'member');
    const { deps } = harness();
    const other = await createSession(deps.db, deps.secretHashKey, account.accountId, member.userId);
    await call('DELETE', '/api/session', { token: member.token });
    const res = await call('GET', '/api/me', { token: other });
    assert.equal(res.status, 200);
    assert.equal(res.body.user.id, member.userId);
  });
});
