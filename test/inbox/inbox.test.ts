import assert from 'node:assert/strict';
import { raiseInboxItem } from '../../src/inbox/service';
import { newAccount, newUser, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { assertFieldError, MISSING_ID } from '../crm/fixtures';

const list = (token: string, query = '') => call('GET', `/api/inbox${query}`, { token });
const resolve = (token: string, id: string) => call('POST', `/api/inbox/${id}/resolve`, { token });

describe('inbox', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('raising an item with the key of an open item writes nothing and answers the open item; once resolved the key is free', async () => {
    const { db } = harness();
    const input = {
      kind: 'commerce_webhook_health',
      urgency: 'urgent' as const,
      dedupKey: 'health:shop-1',
      title: 'Shop silent',
      body: { hours: 72 },
    };
    const first = await raiseInboxItem(db, acct.accountId, input);
    const again = await raiseInboxItem(db, acct.accountId, { ...input, title: 'Shop still silent' });
    assert.deepEqual([first.created, again.created, again.item.id, again.item.title], [true, false, first.item.id, 'Shop silent']);
    const elsewhere = await raiseInboxItem(db, other.accountId, input);
    assert.equal(elsewhere.created, true, 'keys are per account');

    assert.equal((await resolve(acct.ownerToken, first.item.id)).status, 200);
    const reopened = await raiseInboxItem(db, acct.accountId, input);
    assert.equal(reopened.created, true);
    assert.notEqual(reopened.item.id, first.item.id);
  });

  it('concurrent raises of one key leave one open item', async () => {
    const account = await newAccount();
    const input = { kind: 'alert', dedupKey: 'same', title: 'Same problem' };
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => raiseInboxItem(harness().db, account.accountId, input)));
    assert.equal(results.filter((r) => r.created).length, 1);
    assert.equal(new Set(results.map((r) => r.item.id)).size, 1);
  });

  describe('listing and resolving', () => {
    let account: TestAccount;
    let ids: Record<string, string>;
    before(async () => {
      account = await newAccount();
      const { db } = harness();
      ids = {};
      for (const [key, urgency] of [
        ['a', 'low'],
        ['b', 'urgent'],
        ['c', 'normal'],
        ['d', 'urgent'],
      ] as const) {
        ids[key] = (
          await raiseInboxItem(db, account.accountId, {
            kind: key === 'd' ? 'other_kind' : 'test_kind',
            urgency,
            dedupKey: key,
            title: `Item ${key}`,
            body: { key },
          })
        ).item.id;
      }
      await raiseInboxItem(db, other.accountId, { kind: 'test_kind', title: 'Not yours' });
      await resolve(account.ownerToken, ids.c);
    });

    it("lists the account's items newest first as { data, total, page, limit }, with every field", async () => {
      const res = await list(account.ownerToken);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual([res.body.total, res.body.page, res.body.limit], [4, 1, 25]);
      assert.deepEqual(
        res.body.data.map((i: { title: string }) => i.title),
        ['Item d', 'Item c', 'Item b', 'Item a'],
      );
      const c = res.body.data[1];
      assert.deepEqual(Object.keys(c).sort(), [
        'body',
        'created_at',
        'dedup_key',
        'id',
        'kind',
        'resolved',
        'resolved_at',
        'title',
        'urgency',
      ]);
      assert.deepEqual([c.resolved, typeof c.resolved_at, c.dedup_key, c.body], [true, 'string', 'c', { key: 'c' }]);
    });

    it('filters by urgency, resolved and kind, and pages', async () => {
      const titles = async (q: string) => (await list(account.ownerToken, q)).body.data.map((i: { title: string }) => i.title);
      assert.deepEqual(await titles('?urgency=urgent'), ['Item d', 'Item b']);
      assert.deepEqual(await titles('?resolved=false'), ['Item d', 'Item b', 'Item a']);
      assert.deepEqual(await titles('?resolved=true'), ['Item c']);
      assert.deepEqual(await titles('?kind=test_kind&urgency=urgent'), ['Item b']);
      const page2 = await list(account.ownerToken, '?limit=3&page=2');
      assert.deepEqual([page2.body.total, page2.body.data.map((i: { title: string }) => i.title)], [4, ['Item a']]);
    });

    it('any member of the account can read and resolve', async () => {
      const member = await newUser(account.accountId, 'member');
      assert.equal((await list(member.token)).body.total, 4);
      const res = await resolve(member.token, ids.a);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.resolved, true);
    });

    it('resolving is idempotent: a resolved item keeps its first resolved_at', async () => {
      const first = await resolve(account.ownerToken, ids.b);
      const again = await resolve(account.ownerToken, ids.b);
      assert.equal(again.status, 200);
      assert.equal(again.body.resolved_at, first.body.resolved_at);
    });

    it('an item of another account, a missing id or a malformed id answers 404 inbox_item_not_found and changes nothing', async () => {
      for (const id of [ids.d, MISSING_ID, 'not-a-uuid']) {
        const res = await resolve(other.ownerToken, id);
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.code, 'inbox_item_not_found');
      }
      const d = await harness().db('inbox_items').where({ id: ids.d }).first();
      assert.equal(d.resolved_at, null);
      assert.ok(!(await list(other.ownerToken)).body.data.some((i: { id: string }) => Object.values(ids).includes(i.id)));
    });

    it('bad filters are 400 naming the field; no credential is 401', async () => {
      assertFieldError(await list(account.ownerToken, '?urgency=high'), 'query.urgency');
      assertFieldError(await list(account.ownerToken, '?resolved=yes'), 'query.resolved');
      assertFieldError(await list(account.ownerToken, '?limit=101'), 'query.limit');
      assertFieldError(await list(account.ownerToken, '?colour=red'), 'query');
      assert.equal((await call('GET', '/api/inbox')).status, 401);
      assert.equal((await call('POST', `/api/inbox/${ids.d}/resolve`)).status, 401);
    });
  });
});
