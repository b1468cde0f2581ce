import assert from 'node:assert/strict';
import { call } from '../helpers/http';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { assertFieldError, createContact } from './fixtures';

const list = (token: string, query = '') => call('GET', `/api/crm/contacts${query}`, { token });
const names = (res: { body: any }) => res.body.contacts.map((c: { name: string }) => c.name);

describe('CRM contacts: list, search, tag filter, pagination', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount();
    // Created in this order, so newest first is the reverse.
    for (const c of [
      { name: 'Marie Curie', email: 'marie@radium.example', tags: ['scientist', 'vip'] },
      { name: 'Pierre Curie', email: 'pierre@radium.example', tags: ['scientist'] },
      { name: 'Alan Turing', email: 'ALAN@Bletchley.example', tags: ['VIP'] },
      { name: 'Ada Lovelace', email: 'ada@engine.example', tags: [] },
    ])
      await createContact(acct.ownerToken, c);
  });

  it('answers exactly { contacts, total, page, limit }, each contact with createdAt, newest first', async () => {
    const res = await list(acct.ownerToken);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['contacts', 'limit', 'page', 'total']);
    assert.equal(res.body.total, 4);
    assert.deepEqual(names(res), ['Ada Lovelace', 'Alan Turing', 'Pierre Curie', 'Marie Curie']);
    for (const c of res.body.contacts) {
      for (const key of [
        'id',
        'name',
        'email',
        'company',
        'phone',
        'tags',
        'notes',
        'createdAt',
        'commerceTotalSpentCents',
        'commerceOrderCount',
      ]) {
        assert.ok(key in c, `contact lacks ${key}`);
      }
      assert.ok(!Number.isNaN(Date.parse(c.createdAt)));
    }
    const created = res.body.contacts.map((c: { createdAt: string }) => Date.parse(c.createdAt));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => b - a),
    );
  });

  it('page defaults to 1 and limit to 25', async () => {
    const res = await list(acct.ownerToken);
    assert.equal(res.body.page, 1);
    assert.equal(res.body.limit, 25);
  });

  it('search matches a name substring, case-insensitively', async () => {
    const res = await list(acct.ownerToken, '?search=CURIE');
    assert.deepEqual(names(res), ['Pierre Curie', 'Marie Curie']);
    assert.equal(res.body.total, 2);
  });

  it('search matches an email substring, case-insensitively', async () => {
    assert.deepEqual(names(await list(acct.ownerToken, '?search=bletchley')), ['Alan Turing']);
    assert.deepEqual(names(await list(acct.ownerToken, '?search=RADIUM.EX')), ['Pierre Curie', 'Marie Curie']);
  });

  it('a search of 1–2 characters matches the start of a name or email', async () => {
    assert.deepEqual(names(await list(acct.ownerToken, '?search=ad')), ['Ada Lovelace']);
    assert.deepEqual(names(await list(acct.ownerToken, '?search=p')), ['Pierre Curie']);
    assert.deepEqual(names(await list(acct.ownerToken, '?search=ri')), []);
  });

  it('LIKE wildcards in a search are matched literally', async () => {
    assert.equal((await list(acct.ownerToken, '?search=%25%25%25')).body.total, 0);
    assert.equal((await list(acct.ownerToken, '?search=___')).body.total, 0);
  });

  it('an empty search is ignored', async () => {
    assert.equal((await list(acct.ownerToken, '?search=')).body.total, 4);
  });

  it('tag filters on an exact, case-sensitive tag and combines with search', async () => {
    assert.deepEqual(names(await list(acct.ownerToken, '?tag=scientist')), ['Pierre Curie', 'Marie Curie']);
    assert.deepEqual(names(await list(acct.ownerToken, '?tag=vip')), ['Marie Curie']);
    assert.deepEqual(names(await list(acct.ownerToken, '?tag=VIP')), ['Alan Turing']);
    assert.deepEqual(names(await list(acct.ownerToken, '?tag=scien')), []);
    assert.deepEqual(names(await list(acct.ownerToken, '?tag=scientist&search=pierre')), ['Pierre Curie']);
  });

  it('page and limit slice the newest-first order; total counts every match', async () => {
    const res = await list(acct.ownerToken, '?page=2&limit=3');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(names(res), ['Marie Curie']);
    assert.deepEqual([res.body.total, res.body.page, res.body.limit], [4, 2, 3]);
    assert.deepEqual(names(await list(acct.ownerToken, '?page=9&limit=3')), []);
  });

  it('limit may be at most 100; 101, 0, negative, fractional or non-numeric is 400 naming query.limit', async () => {
    assert.equal((await list(acct.ownerToken, '?limit=100')).body.limit, 100);
    for (const bad of ['101', '0', '-1', '2.5', 'ten', '']) assertFieldError(await list(acct.ownerToken, `?limit=${bad}`), 'query.limit');
  });

  it('a bad page is 400 naming query.page', async () => {
    for (const bad of ['0', '-2', 'x', '1.5']) assertFieldError(await list(acct.ownerToken, `?page=${bad}`), 'query.page');
  });

  it('an unknown query parameter is 400', async () => {
    const res = await list(acct.ownerToken, '?sort=name');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
  });

  it('limit 100 returns at most 100 contacts on a big account', async () => {
    const big = await newAccount();
    await harness().db.raw(
      `insert into crm_contacts (account_id, name, email) select ?, 'Bulk ' || g, 'bulk' || g || '@example.test' from generate_series(1, 130) g`,
      [big.accountId],
    );
    const res = await list(big.ownerToken, '?limit=100');
    assert.equal(res.body.contacts.length, 100);
    assert.equal(res.body.total, 130);
    assert.equal((await list(big.ownerToken)).body.contacts.length, 25);
  });

  it("another account's contacts are never listed or found by search", async () => {
    const other = await newAccount();
    await createContact(other.ownerToken, { name: 'Marie Outsider' });
    const res = await list(acct.ownerToken, '?search=outsider');
    assert.equal(res.body.total, 0);
    assert.equal((await list(other.ownerToken)).body.total, 1);
  });
});
