import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { createItem, insertAvatar, MISSING_ID } from './fixtures';

describe('content versions', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  const versions = (id: string, qs = '') => call('GET', `/api/marketing/content/${id}/versions${qs}`, { token: acct.ownerToken });

  it('every change writes one version, listed newest first, with the fields it changed, its actor and a snapshot', async () => {
    const item = await createItem(acct.ownerToken, { title: 'v1', target_keyword: 'kw' });
    const put = await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { title: 'v2', excerpt: 'short' } });
    const patch = await call('PATCH', `/api/agent/marketing/content/${item.id}`, {
      token: acct.agentKey,
      body: { settings: { tone: 'warm' } },
    });
    const res = await versions(item.id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.total, 3);
    assert.deepEqual(
      res.body.data.map((v: { version: number }) => v.version),
      [3, 2, 1],
    );
    const [v3, v2, v1] = res.body.data;
    assert.deepEqual(v1.changed_fields, ['target_keyword', 'title']);
    assert.deepEqual(v2.changed_fields.sort(), ['excerpt', 'title']);
    assert.deepEqual(v3.changed_fields, ['settings']);
    assert.deepEqual(v1.actor, { type: 'user', id: acct.ownerId });
    assert.equal(v3.actor.type, 'agent');
    assert.ok(v3.actor.id);
    assert.deepEqual(v1.snapshot, item);
    assert.deepEqual(v2.snapshot, put.body);
    assert.deepEqual(v3.snapshot, patch.body);
    assert.equal(v1.content_id, item.id);
  });

  it('the agent twin lists the same versions', async () => {
    const item = await createItem(acct.ownerToken);
    await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { title: 'Next' } });
    const res = await call('GET', `/api/agent/marketing/content/${item.id}/versions`, { token: acct.agentKey });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((v: { version: number }) => v.version),
      [2, 1],
    );
  });

  it('a write that changes nothing writes no version; a refused write writes none either', async () => {
    const item = await createItem(acct.ownerToken, { title: 'Same' });
    const echo = await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { ...item } });
    assert.equal(echo.status, 200, echo.text);
    assert.deepEqual(echo.body, item);
    await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { avatar_id: MISSING_ID } });
    assert.equal((await versions(item.id)).body.total, 1);
  });

  it('a grounding change is recorded under its field name', async () => {
    const avatar = await insertAvatar(acct.accountId);
    const item = await createItem(acct.ownerToken);
    await call('PATCH', `/api/agent/marketing/content/${item.id}`, { token: acct.agentKey, body: { avatar_id: avatar.id } });
    const [latest] = (await versions(item.id)).body.data;
    assert.deepEqual(latest.changed_fields, ['avatar_id']);
    assert.deepEqual(latest.snapshot.customer_avatar, { id: avatar.id, name: avatar.name });
  });

  it('versions page with limit and page', async () => {
    const item = await createItem(acct.ownerToken);
    for (const title of ['a', 'b', 'c'])
      await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { title } });
    const page2 = await versions(item.id, '?limit=2&page=2');
    assert.deepEqual(
      page2.body.data.map((v: { version: number }) => v.version),
      [2, 1],
    );
    assert.equal(page2.body.total, 4);
  });

  it('versions of another account item, an unknown or a malformed id answer 404 content_not_found', async () => {
    const foreign = await createItem(other.ownerToken);
    for (const id of [foreign.id, MISSING_ID, 'not-a-uuid']) {
      const res = await versions(id);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'content_not_found');
    }
  });

  it('deleting an item deletes its versions', async () => {
    const item = await createItem(acct.ownerToken);
    assert.equal((await call('DELETE', `/api/marketing/content/${item.id}`, { token: acct.ownerToken })).status, 204);
    const [{ count }] = await harness().db('content_versions').where({ content_id: item.id }).count<{ count: number }[]>({ count: '*' });
    assert.equal(Number(count), 0);
  });
});
