import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { newAccount, newAgentKey, newUser, type TestAccount } from '../../helpers/accounts';
import { assertFieldError } from '../../crm/fixtures';
import { createItem, MISSING_ID } from '../media/fixtures';

const path = (contentId: string, agent = false) => `${agent ? '/api/agent' : '/api'}/marketing/content/${contentId}/reviews`;
const submit = (token: string, contentId: string, body: unknown, agent = false) => call('POST', path(contentId, agent), { token, body });
const reviewsOf = (token: string, contentId: string, query = '', agent = false) =>
  call('GET', `${path(contentId, agent)}${query}`, { token });
const countReviews = async (contentId: string) =>
  Number((await harness().db('content_reviews').where({ content_id: contentId }).count({ n: '*' }))[0].n);

describe('marketing content: reviews', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('an item nobody has reviewed is pending, with latest null and an empty history', async () => {
    const itemId = await createItem(acct.accountId);
    const res = await reviewsOf(acct.ownerToken, itemId);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { status: 'pending', latest: null, history: [], total: 0, page: 1, limit: 25 });
  });

  it('the status follows the latest decision: approve → approved, request_changes → changes_requested, approve again → approved', async () => {
    const itemId = await createItem(acct.accountId);
    const member = await newUser(acct.accountId, 'member');
    const steps: Array<[string, Record<string, string>, string]> = [
      [acct.ownerToken, { decision: 'approve' }, 'approved'],
      [member.token, { decision: 'request_changes', note: 'Cite the grid for the 30% figure.' }, 'changes_requested'],
      [acct.ownerToken, { decision: 'approve', note: 'Fixed, thanks.' }, 'approved'],
    ];
    for (const [token, body, status] of steps) {
      const res = await submit(token, itemId, body);
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.status, status);
      assert.equal(res.body.review.decision, body.decision);
      assert.equal((await reviewsOf(acct.ownerToken, itemId)).body.status, status);
    }
    const res = await reviewsOf(acct.ownerToken, itemId);
    assert.deepEqual(
      res.body.history.map((r: { decision: string; note: string | null }) => [r.decision, r.note]),
      [
        ['approve', 'Fixed, thanks.'],
        ['request_changes', 'Cite the grid for the 30% figure.'],
        ['approve', null],
      ],
      'history is newest first',
    );
    assert.deepEqual(res.body.latest, res.body.history[0]);
    assert.deepEqual(res.body.history[1].reviewer, { type: 'user', id: member.userId });
    assert.equal(res.body.total, 3);
    const page2 = await reviewsOf(acct.ownerToken, itemId, '?limit=1&page=2');
    assert.deepEqual(
      [page2.body.history.length, page2.body.history[0].decision, page2.body.latest.note, page2.body.status],
      [1, 'request_changes', 'Fixed, thanks.', 'approved'],
    );
  });

  it('request_changes needs a note; a bad decision, an over-long note or an unknown field is 400 and writes nothing', async () => {
    const itemId = await createItem(acct.accountId);
    assertFieldError(await submit(acct.ownerToken, itemId, { decision: 'request_changes' }), 'body.note');
    assertFieldError(await submit(acct.ownerToken, itemId, { decision: 'request_changes', note: '   ' }), 'body.note');
    assertFieldError(await submit(acct.ownerToken, itemId, { decision: 'reject' }), 'body.decision');
    assertFieldError(await submit(acct.ownerToken, itemId, {}), 'body.decision');
    assertFieldError(await submit(acct.ownerToken, itemId, { decision: 'approve', note: 'x'.repeat(10_001) }), 'body.note');
    assertFieldError(await submit(acct.ownerToken, itemId, { decision: 'approve', score: 5 }), 'body');
    assert.equal(await countReviews(itemId), 0);
    assert.equal((await reviewsOf(acct.ownerToken, itemId)).body.status, 'pending');
  });

  it('an agent key reviews through the agent twin and is recorded as the reviewer (type agent)', async () => {
    const itemId = await createItem(acct.accountId);
    const key = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:update']);
    const res = await submit(key, itemId, { decision: 'request_changes', note: 'Missing H2 keyword.' }, true);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.review.reviewer.type, 'agent');
    const seen = await reviewsOf(key, itemId, '', true);
    assert.deepEqual([seen.body.status, seen.body.latest.id], ['changes_requested', res.body.review.id]);
  });

  it('an item of another account, a missing item or a malformed id answers 404 content_not_found on status and submit', async () => {
    const theirs = await createItem(other.accountId);
    await submit(other.ownerToken, theirs, { decision: 'approve' });
    for (const id of [theirs, MISSING_ID, 'not-a-uuid']) {
      const got = await reviewsOf(acct.ownerToken, id);
      assert.deepEqual([got.status, got.body.code], [404, 'content_not_found'], id);
      const sent = await submit(acct.ownerToken, id, { decision: 'request_changes', note: 'no' });
      assert.deepEqual([sent.status, sent.body.code], [404, 'content_not_found'], id);
    }
    assert.equal((await reviewsOf(other.ownerToken, theirs)).body.status, 'approved');
  });

  it('a read-only agent key can read the status but not review (403 read_only_key)', async () => {
    const itemId = await createItem(acct.accountId);
    const readOnly = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:update'], true);
    assert.equal((await reviewsOf(readOnly, itemId, '', true)).status, 200);
    const refused = await submit(readOnly, itemId, { decision: 'approve' }, true);
    assert.deepEqual([refused.status, refused.body.code], [403, 'read_only_key']);
    assert.equal(await countReviews(itemId), 0);
  });
});
