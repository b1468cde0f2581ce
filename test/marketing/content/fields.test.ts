import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { assertFieldError, cmsLink, createItem, insertCategory, rowCounts } from './fixtures';

describe('content item fields', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('a new item defaults to status draft, content_type blog_post, deploy_target production and empty tags and settings', async () => {
    const item = await createItem(acct.ownerToken, { title: 'Defaults' });
    assert.equal(item.status, 'draft');
    assert.equal(item.content_type, 'blog_post');
    assert.equal(item.deploy_target, 'production');
    assert.deepEqual(item.tags, []);
    assert.deepEqual(item.settings, {});
    assert.equal(item.published_at, null);
    assert.equal(item.created_by_user_id, acct.ownerId);
  });

  it('title is required on create', async () => {
    const counts = await rowCounts(acct.accountId);
    assertFieldError(await call('POST', '/api/marketing/content', { token: acct.ownerToken, body: {} }), 'body.title');
    assertFieldError(await call('POST', '/api/marketing/content', { token: acct.ownerToken, body: { title: '   ' } }), 'body.title');
    assert.deepEqual(await rowCounts(acct.accountId), counts);
  });

  it('deploy_target takes production, staging, dev, none and publish, and refuses anything else', async () => {
    const item = await createItem(acct.ownerToken);
    for (const target of ['staging', 'dev', 'none', 'publish', 'production']) {
      const res = await call('PATCH', `/api/agent/marketing/content/${item.id}`, { token: acct.agentKey, body: { deploy_target: target } });
      assert.equal(res.body.deploy_target, target, res.text);
    }
    assertFieldError(
      await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { deploy_target: 'prod' } }),
      'body.deploy_target',
    );
    assertFieldError(
      await call('POST', '/api/agent/marketing/content', { token: acct.agentKey, body: { title: 't', deploy_target: 'live' } }),
      'body.deploy_target',
    );
  });

  // The CMS link on the agent routes, which needs a connected site, is covered in cmsLink.test.ts.
  it('the agent create and PATCH accept featured_image_alt, meta_keywords, canonical_url and settings', async () => {
    const created = await call('POST', '/api/agent/marketing/content', {
      token: acct.agentKey,
      body: {
        title: 'Agent post',
        featured_image_alt: 'A plumber at work',
        meta_keywords: 'crm, plumbers',
        canonical_url: 'https://example.test/blog/agent-post',
        settings: { tone: 'warm' },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.featured_image_alt, 'A plumber at work');
    assert.equal(created.body.meta_keywords, 'crm, plumbers');
    assert.equal(created.body.canonical_url, 'https://example.test/blog/agent-post');
    assert.equal(created.body.settings.tone, 'warm');
    assert.equal(created.body.created_by_user_id, null);
    const patched = await call('PATCH', `/api/agent/marketing/content/${created.body.id}`, {
      token: acct.agentKey,
      body: { featured_image_alt: 'Another', meta_keywords: null, canonical_url: 'https://example.test/c' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.featured_image_alt, 'Another');
    assert.equal(patched.body.meta_keywords, null);
  });

  it('canonical_url must be an absolute http(s) URL and cms_link must carry a project uuid and a collection', async () => {
    assertFieldError(
      await call('POST', '/api/agent/marketing/content', { token: acct.agentKey, body: { title: 't', canonical_url: '/relative' } }),
      'body.canonical_url',
    );
    assertFieldError(
      await call('POST', '/api/agent/marketing/content', {
        token: acct.agentKey,
        body: { title: 't', cms_link: { project_id: 'x', collection_id: 'c' } },
      }),
      'body.cms_link.project_id',
    );
    assertFieldError(
      await call('POST', '/api/agent/marketing/content', {
        token: acct.agentKey,
        body: { title: 't', cms_link: { project_id: cmsLink.project_id } },
      }),
      'body.cms_link.collection_id',
    );
  });

  it('the agent get adds url, url_source and scheduled_publish, all null until the site integration knows them', async () => {
    const item = await createItem(acct.ownerToken);
    const agentGot = await call('GET', `/api/agent/marketing/content/${item.id}`, { token: acct.agentKey });
    assert.equal(agentGot.status, 200, agentGot.text);
    assert.equal(agentGot.body.url, null);
    assert.equal(agentGot.body.url_source, null);
    assert.equal(agentGot.body.scheduled_publish, null);
    const got = await call('GET', `/api/marketing/content/${item.id}`, { token: acct.ownerToken });
    assert.equal('url_source' in got.body, false);
    const listed = await call('GET', '/api/marketing/content', { token: acct.ownerToken });
    assert.equal(listed.body.data[0].url, null);
  });

  it('published_at is stamped the first time status becomes published and kept after', async () => {
    const item = await createItem(acct.ownerToken);
    const published = await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { status: 'published' } });
    assert.ok(published.body.published_at, published.text);
    const back = await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { status: 'draft' } });
    assert.equal(back.body.published_at, published.body.published_at);
    const direct = await createItem(acct.ownerToken, { status: 'published' });
    assert.ok(direct.published_at);
  });

  it('published_at sent by a client is ignored (read-only, echoed back by the editor)', async () => {
    const item = await createItem(acct.ownerToken);
    const res = await call('PUT', `/api/marketing/content/${item.id}`, {
      token: acct.ownerToken,
      body: { ...item, published_at: '2020-01-01T00:00:00Z', title: 'Echo' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.published_at, null);
    assert.equal(res.body.title, 'Echo');
  });

  it('an unknown field is 400 and a category of another account is 400 invalid_reference', async () => {
    const item = await createItem(acct.ownerToken);
    const unknown = await call('PATCH', `/api/agent/marketing/content/${item.id}`, { token: acct.agentKey, body: { colour: 'red' } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 'validation_failed');
    const foreign = await insertCategory(other.accountId);
    const res = await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { category_id: foreign.id } });
    assert.equal(res.body.code, 'invalid_reference');
    assert.equal(res.body.field, 'category_id');
    const own = await insertCategory(acct.accountId);
    assert.equal(
      (await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { category_id: own.id } })).body.category_id,
      own.id,
    );
  });

  it('tags are trimmed and deduplicated, and null clears them', async () => {
    const item = await createItem(acct.ownerToken, { tags: [' seo ', 'seo', 'howto'] });
    assert.deepEqual(item.tags, ['seo', 'howto']);
    const cleared = await call('PUT', `/api/marketing/content/${item.id}`, { token: acct.ownerToken, body: { tags: null } });
    assert.deepEqual(cleared.body.tags, []);
  });

  it('create honours Idempotency-Key: a retry answers the same item and writes one row', async () => {
    const counts = await rowCounts(acct.accountId);
    const headers = { 'idempotency-key': `create-${Date.now()}` };
    const first = await call('POST', '/api/marketing/content', { token: acct.ownerToken, headers, body: { title: 'Once' } });
    const again = await call('POST', '/api/marketing/content', { token: acct.ownerToken, headers, body: { title: 'Once' } });
    assert.equal(first.status, 201, first.text);
    assert.equal(again.body.id, first.body.id);
    assert.deepEqual(await rowCounts(acct.accountId), { items: counts.items + 1, versions: counts.versions + 1 });
  });
});
