import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { ABSENT_IDS, assertError, assertFieldError, create, MISSING_ID } from '../grounding/fixtures';

const createCategory = (token: string, body: Record<string, unknown>) => create(token, 'categories', body);
const post = (token: string, body: unknown) => call('POST', '/api/marketing/categories', { token, body });
const countCategories = async (accountId: string) =>
  Number((await harness().db('marketing_categories').where({ account_id: accountId }).count({ n: '*' }))[0].n);

describe('Marketing categories', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('creating a category answers 201 with a slug derived from the name when none is sent', async () => {
    const res = await post(acct.ownerToken, { name: 'Case Studies & Wins', description: 'Customer stories' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      { name: res.body.name, slug: res.body.slug, description: res.body.description },
      { name: 'Case Studies & Wins', slug: 'case-studies-wins', description: 'Customer stories' },
    );
    const got = await call('GET', `/api/marketing/categories/${res.body.id}`, { token: acct.ownerToken });
    assert.deepEqual(got.body, res.body);
    for (const slug of [null, '']) {
      const derived = await createCategory(acct.ownerToken, { name: `Café Déjà ${slug === null ? 'Null' : 'Empty'}`, slug });
      assert.equal(derived.slug, `cafe-deja-${slug === null ? 'null' : 'empty'}`);
    }
  });

  it('an explicit slug is kept as sent and must be lowercase words of a-z and 0-9 joined by single hyphens, at most 100 characters', async () => {
    const explicit = await createCategory(acct.ownerToken, { name: 'How-to guides', slug: 'guides-2026' });
    assert.equal(explicit.slug, 'guides-2026');
    for (const slug of ['Guides', 'how to', 'how--to', '-guides', 'guides-', 'guías', 'a_b', 'x'.repeat(101), 42]) {
      assertFieldError(await post(acct.ownerToken, { name: `Bad slug ${String(slug).slice(0, 10)}`, slug }), 'body.slug');
    }
  });

  it('a name without letters or digits to derive a slug from is 400 naming body.slug, and works with an explicit slug', async () => {
    const res = await post(acct.ownerToken, { name: '日本語' });
    assertFieldError(res, 'body.slug');
    assert.match(res.body.message, /send a slug/);
    const ok = await createCategory(acct.ownerToken, { name: '日本語', slug: 'japanese' });
    assert.deepEqual([ok.name, ok.slug], ['日本語', 'japanese']);
  });

  it('a name the account already uses, ignoring case, is 409 category_name_taken and nothing is written', async () => {
    await createCategory(acct.ownerToken, { name: 'Announcements' });
    const before = await countCategories(acct.accountId);
    const res = await post(acct.ownerToken, { name: 'ANNOUNCEMENTS', slug: 'other-slug' });
    assertError(res, 409, 'category_name_taken');
    assert.equal(res.body.field, 'name');
    assert.equal(await countCategories(acct.accountId), before);
  });

  it('a slug the account already uses, sent or derived, is 409 category_slug_taken', async () => {
    await createCategory(acct.ownerToken, { name: 'Product News' });
    const derived = await post(acct.ownerToken, { name: 'Product — News' });
    assertError(derived, 409, 'category_slug_taken');
    assert.equal(derived.body.field, 'slug');
    assertError(await post(acct.ownerToken, { name: 'Updates', slug: 'product-news' }), 409, 'category_slug_taken');
  });

  it('another account may use the same name and slug', async () => {
    const mine = await createCategory(acct.ownerToken, { name: 'Shared Name' });
    const theirs = await createCategory(other.ownerToken, { name: 'Shared Name' });
    assert.deepEqual([theirs.slug, mine.slug], ['shared-name', 'shared-name']);
  });

  it('name is required (1..100 characters) and unknown fields are 400', async () => {
    assertFieldError(await post(acct.ownerToken, { slug: 'no-name' }), 'body.name');
    assertFieldError(await post(acct.ownerToken, { name: 'x'.repeat(101) }), 'body.name');
    assertFieldError(await post(acct.ownerToken, { name: 'Fine', parent_id: MISSING_ID }), 'body');
  });

  it('renaming keeps the slug; slug null derives it again from the name; a taken name or slug is 409 and changes nothing', async () => {
    const cat = await createCategory(acct.ownerToken, { name: 'Tips', description: 'Short tips' });
    const renamed = await call('PATCH', `/api/marketing/categories/${cat.id}`, {
      token: acct.ownerToken,
      body: { name: 'Tips and Tricks' },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual([renamed.body.name, renamed.body.slug, renamed.body.description], ['Tips and Tricks', 'tips', 'Short tips']);
    const rederived = await call('PATCH', `/api/marketing/categories/${cat.id}`, {
      token: acct.ownerToken,
      body: { slug: null, description: null },
    });
    assert.deepEqual([rederived.body.slug, rederived.body.description], ['tips-and-tricks', null]);
    const both = await call('PATCH', `/api/marketing/categories/${cat.id}`, {
      token: acct.ownerToken,
      body: { name: 'Playbooks', slug: '' },
    });
    assert.deepEqual([both.body.name, both.body.slug], ['Playbooks', 'playbooks']);
    const explicit = await call('PATCH', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken, body: { slug: 'plays' } });
    assert.equal(explicit.body.slug, 'plays');

    await createCategory(acct.ownerToken, { name: 'Webinars' });
    assertError(
      await call('PATCH', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken, body: { name: 'webinars' } }),
      409,
      'category_name_taken',
    );
    assertError(
      await call('PATCH', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken, body: { slug: 'webinars' } }),
      409,
      'category_slug_taken',
    );
    assertFieldError(
      await call('PATCH', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken, body: { slug: 'Not A Slug' } }),
      'body.slug',
    );
    const same = await call('GET', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken });
    assert.deepEqual([same.body.name, same.body.slug], ['Playbooks', 'plays']);
    const noop = await call('PATCH', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken, body: { name: 'PLAYBOOKS' } });
    assert.equal(noop.status, 200, 'a category may change the case of its own name');
  });

  it('DELETE answers 204, content in the category keeps existing with category_id null', async () => {
    const cat = await createCategory(acct.ownerToken, { name: 'Doomed' });
    const [item] = await harness()
      .db('content_items')
      .insert({ account_id: acct.accountId, title: 'In a category', category_id: cat.id })
      .returning('id');
    assert.equal((await call('DELETE', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken })).status, 204);
    assertError(await call('GET', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken }), 404, 'category_not_found');
    const row = await harness().db('content_items').where({ id: item.id }).first();
    assert.deepEqual([row?.title, row?.category_id], ['In a category', null]);
  });

  it('a category of another account, a missing id or a malformed id answers 404 category_not_found on get, update and delete', async () => {
    const theirs = await createCategory(other.ownerToken, { name: 'Theirs only' });
    for (const id of [theirs.id, ...ABSENT_IDS]) {
      assertError(await call('GET', `/api/marketing/categories/${id}`, { token: acct.ownerToken }), 404, 'category_not_found');
      assertError(
        await call('PATCH', `/api/marketing/categories/${id}`, { token: acct.ownerToken, body: { name: 'Mine' } }),
        404,
        'category_not_found',
      );
      assertError(await call('PATCH', `/api/marketing/categories/${id}`, { token: acct.ownerToken, body: {} }), 404, 'category_not_found');
      assertError(await call('DELETE', `/api/marketing/categories/${id}`, { token: acct.ownerToken }), 404, 'category_not_found');
      assertError(await call('GET', `/api/agent/marketing/categories/${id}`, { token: acct.agentKey }), 404, 'category_not_found');
    }
    assert.equal((await call('GET', `/api/marketing/categories/${theirs.id}`, { token: other.ownerToken })).body.name, 'Theirs only');
  });

  it("lists the account's categories alphabetically, ignoring case, as { data, total, page, limit }, with search", async () => {
    const acctL = await newAccount();
    for (const name of ['beta', 'Alpha', 'Gamma', 'delta']) await createCategory(acctL.ownerToken, { name });
    const res = await call('GET', '/api/marketing/categories', { token: acctL.ownerToken });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.data.map((c: { name: string }) => c.name),
      ['Alpha', 'beta', 'delta', 'Gamma'],
    );
    assert.deepEqual([res.body.total, res.body.page, res.body.limit], [4, 1, 25]);
    const page = await call('GET', '/api/marketing/categories?page=2&limit=3', { token: acctL.ownerToken });
    assert.deepEqual(
      page.body.data.map((c: { name: string }) => c.name),
      ['Gamma'],
    );
    const searched = await call('GET', '/api/marketing/categories?search=ELT', { token: acctL.ownerToken });
    assert.deepEqual(
      searched.body.data.map((c: { name: string }) => c.name),
      ['delta'],
    );
    assertFieldError(await call('GET', '/api/marketing/categories?limit=0', { token: acctL.ownerToken }), 'query.limit');
  });

  describe('agent twins', () => {
    it('an agent key with the content permissions creates, reads, lists, updates and deletes categories', async () => {
      const key = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:create', 'marketing.content:update']);
      const created = await call('POST', '/api/agent/marketing/categories', { token: key, body: { name: 'From agent' } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.slug, 'from-agent');
      assert.deepEqual((await call('GET', `/api/agent/marketing/categories/${created.body.id}`, { token: key })).body, created.body);
      assert.ok(
        (await call('GET', '/api/agent/marketing/categories?limit=100', { token: key })).body.data.some(
          (c: { id: string }) => c.id === created.body.id,
        ),
      );
      const patched = await call('PATCH', `/api/agent/marketing/categories/${created.body.id}`, {
        token: key,
        body: { description: 'set by agent' },
      });
      assert.equal(patched.body.description, 'set by agent');
      assertError(
        await call('POST', '/api/agent/marketing/categories', { token: key, body: { name: 'FROM AGENT' } }),
        409,
        'category_name_taken',
      );
      assert.equal((await call('DELETE', `/api/agent/marketing/categories/${created.body.id}`, { token: key })).status, 204);
    });

    it('a key without marketing permissions is 403 missing_permission; read for GET, create for POST, update for PATCH and DELETE', async () => {
      const none = await newAgentKey(acct.accountId, ['jobs:read']);
      const read = await newAgentKey(acct.accountId, ['marketing.content:read']);
      const createOnly = await newAgentKey(acct.accountId, ['marketing.content:create']);
      const cat = await createCategory(acct.ownerToken, { name: 'Permission target' });
      const path = `/api/agent/marketing/categories/${cat.id}`;
      for (const [method, p] of [
        ['GET', '/api/agent/marketing/categories'],
        ['POST', '/api/agent/marketing/categories'],
        ['GET', path],
        ['PATCH', path],
        ['DELETE', path],
      ]) {
        assertError(
          await call(method, p, { token: none, body: method === 'POST' || method === 'PATCH' ? { name: 'X' } : undefined }),
          403,
          'missing_permission',
        );
      }
      assert.equal((await call('GET', path, { token: read })).status, 200);
      assertError(
        await call('POST', '/api/agent/marketing/categories', { token: read, body: { name: 'By reader' } }),
        403,
        'missing_permission',
      );
      assertError(await call('PATCH', path, { token: createOnly, body: { name: 'By creator' } }), 403, 'missing_permission');
      assertError(await call('DELETE', path, { token: createOnly }), 403, 'missing_permission');
      assert.equal(
        (await call('POST', '/api/agent/marketing/categories', { token: createOnly, body: { name: 'By creator' } })).status,
        201,
      );
    });

    it('a read-only key reads but answers 403 read_only_key on writes, and nothing changes', async () => {
      const key = await newAgentKey(
        acct.accountId,
        ['marketing.content:read', 'marketing.content:create', 'marketing.content:update'],
        true,
      );
      const cat = await createCategory(acct.ownerToken, { name: 'Read only category' });
      const path = `/api/agent/marketing/categories/${cat.id}`;
      assert.equal((await call('GET', path, { token: key })).status, 200);
      assert.equal((await call('GET', '/api/agent/marketing/categories', { token: key })).status, 200);
      assertError(await call('POST', '/api/agent/marketing/categories', { token: key, body: { name: 'Nope' } }), 403, 'read_only_key');
      assertError(await call('PATCH', path, { token: key, body: { name: 'Nope' } }), 403, 'read_only_key');
      assertError(await call('DELETE', path, { token: key }), 403, 'read_only_key');
      assert.deepEqual((await call('GET', `/api/marketing/categories/${cat.id}`, { token: acct.ownerToken })).body, cat);
    });
  });
});
