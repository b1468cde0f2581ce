import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { newAccount, newAgentKey, newUser, type TestAccount } from '../../helpers/accounts';
import { assertFieldError } from '../../crm/fixtures';
import { createItem, MISSING_ID } from '../media/fixtures';

const path = (contentId: string, agent = false) => `${agent ? '/api/agent' : '/api'}/marketing/content/${contentId}/comments`;
const addComment = (token: string, contentId: string, body: unknown, agent = false) =>
  call('POST', path(contentId, agent), { token, body });
const listComments = (token: string, contentId: string, query = '', agent = false) =>
  call('GET', `${path(contentId, agent)}${query}`, { token });
const countComments = async (contentId: string) =>
  Number((await harness().db('content_comments').where({ content_id: contentId }).count({ n: '*' }))[0].n);

describe('marketing content: comments', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('adding a comment answers 201 with id, content_id, trimmed body, the user as author and created_at', async () => {
    const itemId = await createItem(acct.accountId);
    const res = await addComment(acct.ownerToken, itemId, { body: '  Tighten the intro.  ' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      { content_id: res.body.content_id, body: res.body.body, author: res.body.author },
      { content_id: itemId, body: 'Tighten the intro.', author: { type: 'user', id: acct.ownerId } },
    );
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(res.body.created_at)));
  });

  it('an agent key comments through the agent twin and is the author (type agent)', async () => {
    const itemId = await createItem(acct.accountId);
    const key = await newAgentKey(acct.accountId, ['marketing.content:update', 'marketing.content:read']);
    const res = await addComment(key, itemId, { body: 'Added two sources.' }, true);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.author.type, 'agent');
    assert.ok(res.body.author.id);
    const listed = await listComments(key, itemId, '', true);
    assert.deepEqual(
      listed.body.data.map((c: { author: unknown }) => c.author),
      [res.body.author],
    );
  });

  it('lists the comments oldest first as { data, total, page, limit }, paged', async () => {
    const itemId = await createItem(acct.accountId);
    const member = await newUser(acct.accountId, 'member');
    for (const [token, body] of [
      [acct.ownerToken, 'first'],
      [member.token, 'second'],
      [acct.ownerToken, 'third'],
    ]) {
      assert.equal((await addComment(token, itemId, { body })).status, 201);
    }
    const all = await listComments(acct.ownerToken, itemId);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(
      all.body.data.map((c: { body: string }) => c.body),
      ['first', 'second', 'third'],
    );
    assert.equal(all.body.data[1].author.id, member.userId);
    assert.deepEqual([all.body.total, all.body.page, all.body.limit], [3, 1, 25]);
    const page2 = await listComments(acct.ownerToken, itemId, '?limit=2&page=2');
    assert.deepEqual([page2.body.data.map((c: { body: string }) => c.body), page2.body.total], [['third'], 3]);
  });

  it('a body that is missing, blank or over 10,000 characters, or an unknown field, is 400 and writes nothing', async () => {
    const itemId = await createItem(acct.accountId);
    assertFieldError(await addComment(acct.ownerToken, itemId, {}), 'body.body');
    assertFieldError(await addComment(acct.ownerToken, itemId, { body: '   ' }), 'body.body');
    assertFieldError(await addComment(acct.ownerToken, itemId, { body: 'x'.repeat(10_001) }), 'body.body');
    assertFieldError(await addComment(acct.ownerToken, itemId, { body: 'ok', pinned: true }), 'body');
    assert.equal(await countComments(itemId), 0);
    assert.equal((await addComment(acct.ownerToken, itemId, { body: 'x'.repeat(10_000) })).status, 201, 'exactly 10,000 is allowed');
  });

  it('an item of another account, a missing item or a malformed id answers 404 content_not_found on list and add', async () => {
    const theirs = await createItem(other.accountId);
    await addComment(other.ownerToken, theirs, { body: 'private' });
    for (const id of [theirs, MISSING_ID, 'not-a-uuid']) {
      const listed = await listComments(acct.ownerToken, id);
      assert.deepEqual([listed.status, listed.body.code], [404, 'content_not_found'], id);
      const added = await addComment(acct.ownerToken, id, { body: 'hello' });
      assert.deepEqual([added.status, added.body.code], [404, 'content_not_found'], id);
    }
    assert.equal(await countComments(theirs), 1);
  });

  it('a read-only agent key can list but not comment (403 read_only_key)', async () => {
    const itemId = await createItem(acct.accountId);
    const readOnly = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:update'], true);
    assert.equal((await listComments(readOnly, itemId, '', true)).status, 200);
    const refused = await addComment(readOnly, itemId, { body: 'x' }, true);
    assert.deepEqual([refused.status, refused.body.code], [403, 'read_only_key']);
    const reader = await newAgentKey(acct.accountId, ['marketing.content:read']);
    assert.equal((await addComment(reader, itemId, { body: 'x' }, true)).body.code, 'missing_permission');
  });

  it('a retried comment with the same Idempotency-Key is written once', async () => {
    const itemId = await createItem(acct.accountId);
    const send = () =>
      call('POST', path(itemId), { token: acct.ownerToken, body: { body: 'once' }, headers: { 'idempotency-key': `c-${itemId}` } });
    const [a, b] = [await send(), await send()];
    assert.equal(a.status, 201);
    assert.equal(b.body.id, a.body.id);
    assert.equal(await countComments(itemId), 1);
  });
});
