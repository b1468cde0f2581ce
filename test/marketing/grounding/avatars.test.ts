import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { ABSENT_IDS, assertError, assertFieldError, createAvatar } from './fixtures';

const countAvatars = async (accountId: string) =>
  Number((await harness().db('customer_avatars').where({ account_id: accountId }).count({ n: '*' }))[0].n);

describe('Customer avatars', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('creating an avatar answers 201 with id, name, description, attributes and timestamps', async () => {
    const attributes = {
      role: 'Owner of a 5-person plumbing firm',
      goals: ['Get paid faster'],
      pains: ['Chasing invoices'],
      objections: ['No time to learn new tools'],
      team_size: 5,
      uses_spreadsheets: true,
    };
    const res = await call('POST', '/api/marketing/avatars', {
      token: acct.ownerToken,
      body: { name: 'Busy Owner', description: 'Runs a trade business', attributes },
    });
    assert.equal(res.status, 201, res.text);
    assert.match(res.body.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { name: res.body.name, description: res.body.description, attributes: res.body.attributes },
      { name: 'Busy Owner', description: 'Runs a trade business', attributes },
    );
    assert.ok(!Number.isNaN(Date.parse(res.body.created_at)) && !Number.isNaN(Date.parse(res.body.updated_at)));
    const got = await call('GET', `/api/marketing/avatars/${res.body.id}`, { token: acct.ownerToken });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, res.body);
  });

  it('only name is required: description is null and attributes {} when absent', async () => {
    const avatar = await createAvatar(acct.ownerToken, { name: 'Minimal' });
    assert.deepEqual([avatar.description, avatar.attributes], [null, {}]);
    assertFieldError(await call('POST', '/api/marketing/avatars', { token: acct.ownerToken, body: {} }), 'body.name');
    assertFieldError(await call('POST', '/api/marketing/avatars', { token: acct.ownerToken, body: { name: '  ' } }), 'body.name');
    assertFieldError(
      await call('POST', '/api/marketing/avatars', { token: acct.ownerToken, body: { name: 'x'.repeat(256) } }),
      'body.name',
    );
  });

  it('attributes must be a flat object of bounded size: bad shapes are 400 naming the attribute and nothing is written', async () => {
    const before = await countAvatars(acct.accountId);
    const post = (attributes: unknown) =>
      call('POST', '/api/marketing/avatars', { token: acct.ownerToken, body: { name: 'A', attributes } });
    assertFieldError(await post(['not', 'an', 'object']), 'body.attributes');
    assertFieldError(await post('role: owner'), 'body.attributes');
    assertFieldError(await post({ goals: 'Get paid faster' }), 'body.attributes.goals');
    assertFieldError(await post({ pains: [''] }), 'body.attributes.pains.0');
    assertFieldError(await post({ role: ['a', 'b'] }), 'body.attributes.role');
    assertFieldError(await post({ nested: { deep: true } }), 'body.attributes.nested');
    assertFieldError(await post({ goals: Array.from({ length: 51 }, (_, i) => `goal ${i}`) }), 'body.attributes.goals');
    assertFieldError(await post(Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i]))), 'body.attributes');
    assertFieldError(await post({ ['k'.repeat(65)]: 1 }), `body.attributes.${'k'.repeat(65)}`);
    assertFieldError(
      await post(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`note${i}`, 'x'.repeat(1900)]))),
      'body.attributes',
    );
    assert.equal(await countAvatars(acct.accountId), before);
  });

  it('unknown fields are 400 validation_failed', async () => {
    const res = await call('POST', '/api/marketing/avatars', { token: acct.ownerToken, body: { name: 'A', age: 40 } });
    assertFieldError(res, 'body');
    assert.match(res.body.errors[0].message, /age/);
    const avatar = await createAvatar(acct.ownerToken);
    assertFieldError(
      await call('PATCH', `/api/marketing/avatars/${avatar.id}`, { token: acct.ownerToken, body: { id: avatar.id } }),
      'body',
    );
  });

  it('PATCH changes only the fields sent, attributes replace the stored object, null clears description', async () => {
    const avatar = await createAvatar(acct.ownerToken, { description: 'Keep me', attributes: { role: 'Owner', goals: ['A'] } });
    const renamed = await call('PATCH', `/api/marketing/avatars/${avatar.id}`, { token: acct.ownerToken, body: { name: 'Renamed' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual(
      [renamed.body.name, renamed.body.description, renamed.body.attributes],
      ['Renamed', 'Keep me', { role: 'Owner', goals: ['A'] }],
    );
    assert.ok(Date.parse(renamed.body.updated_at) >= Date.parse(avatar.updated_at));
    const replaced = await call('PATCH', `/api/marketing/avatars/${avatar.id}`, {
      token: acct.ownerToken,
      body: { attributes: { pains: ['B'] }, description: null },
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.deepEqual([replaced.body.description, replaced.body.attributes], [null, { pains: ['B'] }]);
    const empty = await call('PATCH', `/api/marketing/avatars/${avatar.id}`, { token: acct.ownerToken, body: {} });
    assert.deepEqual(empty.body, replaced.body);
    assertFieldError(
      await call('PATCH', `/api/marketing/avatars/${avatar.id}`, { token: acct.ownerToken, body: { name: '' } }),
      'body.name',
    );
  });

  it('DELETE answers 204, then the avatar is 404 avatar_not_found', async () => {
    const avatar = await createAvatar(acct.ownerToken);
    const res = await call('DELETE', `/api/marketing/avatars/${avatar.id}`, { token: acct.ownerToken });
    assert.equal(res.status, 204, res.text);
    assertError(await call('GET', `/api/marketing/avatars/${avatar.id}`, { token: acct.ownerToken }), 404, 'avatar_not_found');
    assertError(await call('DELETE', `/api/marketing/avatars/${avatar.id}`, { token: acct.ownerToken }), 404, 'avatar_not_found');
  });

  it('an avatar of another account, a missing id or a malformed id answers 404 avatar_not_found on get, update and delete, and is left unchanged', async () => {
    const theirs = await createAvatar(other.ownerToken, { name: 'Theirs' });
    for (const id of [theirs.id, ...ABSENT_IDS]) {
      assertError(await call('GET', `/api/marketing/avatars/${id}`, { token: acct.ownerToken }), 404, 'avatar_not_found');
      assertError(
        await call('PATCH', `/api/marketing/avatars/${id}`, { token: acct.ownerToken, body: { name: 'Mine now' } }),
        404,
        'avatar_not_found',
      );
      assertError(await call('PATCH', `/api/marketing/avatars/${id}`, { token: acct.ownerToken, body: {} }), 404, 'avatar_not_found');
      assertError(await call('DELETE', `/api/marketing/avatars/${id}`, { token: acct.ownerToken }), 404, 'avatar_not_found');
    }
    const still = await call('GET', `/api/marketing/avatars/${theirs.id}`, { token: other.ownerToken });
    assert.equal(still.body.name, 'Theirs');
  });

  describe('listing', () => {
    let acctL: TestAccount;
    before(async () => {
      acctL = await newAccount();
      for (const name of ['Solo Founder', 'Practice Manager', 'Office 100% Remote', 'Agency Owner'])
        await createAvatar(acctL.ownerToken, { name });
    });

    it("lists the account's avatars newest first as { data, total, page, limit }, paginated", async () => {
      const res = await call('GET', '/api/marketing/avatars', { token: acctL.ownerToken });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.data.map((a: { name: string }) => a.name),
        ['Agency Owner', 'Office 100% Remote', 'Practice Manager', 'Solo Founder'],
      );
      assert.deepEqual([res.body.total, res.body.page, res.body.limit], [4, 1, 25]);
      const page2 = await call('GET', '/api/marketing/avatars?limit=3&page=2', { token: acctL.ownerToken });
      assert.deepEqual(
        [page2.body.data.map((a: { name: string }) => a.name), page2.body.total, page2.body.page, page2.body.limit],
        [['Solo Founder'], 4, 2, 3],
      );
    });

    it('search matches part of the name ignoring case, with % and _ taken literally', async () => {
      const owner = await call('GET', '/api/marketing/avatars?search=OWN', { token: acctL.ownerToken });
      assert.deepEqual(
        owner.body.data.map((a: { name: string }) => a.name),
        ['Agency Owner'],
      );
      assert.equal(owner.body.total, 1);
      const percent = await call('GET', `/api/marketing/avatars?search=${encodeURIComponent('100%')}`, { token: acctL.ownerToken });
      assert.deepEqual(
        percent.body.data.map((a: { name: string }) => a.name),
        ['Office 100% Remote'],
      );
      assert.equal((await call('GET', '/api/marketing/avatars?search=_', { token: acctL.ownerToken })).body.total, 0);
    });

    it("another account's avatars never appear", async () => {
      const res = await call('GET', '/api/marketing/avatars?limit=100', { token: other.ownerToken });
      assert.ok(!res.body.data.some((a: { name: string }) => a.name === 'Agency Owner'));
    });

    it('bad page, limit or search and unknown query parameters are 400 naming them', async () => {
      assertFieldError(await call('GET', '/api/marketing/avatars?limit=101', { token: acctL.ownerToken }), 'query.limit');
      assertFieldError(await call('GET', '/api/marketing/avatars?page=0', { token: acctL.ownerToken }), 'query.page');
      assertFieldError(await call('GET', `/api/marketing/avatars?search=${'x'.repeat(201)}`, { token: acctL.ownerToken }), 'query.search');
      assertFieldError(await call('GET', '/api/marketing/avatars?sort=name', { token: acctL.ownerToken }), 'query');
    });
  });
});
