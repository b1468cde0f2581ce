import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { codes, getSiteLinks, insertItem } from './fixtures';

/** doc1 site-links: project_id required and the account's, limit default and maximum 500, content_item records. */
describe('site links: request rules and content item links', () => {
  let acct: TestAccount;
  let projectId: string;
  const ids: Record<string, string> = {};
  const get = (params: Record<string, string | number>, status = 200) => getSiteLinks(harness().baseUrl, acct.agentKey, params, status);

  before(async () => {
    acct = await newAccount();
    // No host: nothing is crawled, so the answer is the content items alone.
    projectId = await newProjectId(acct.accountId, { kind: 'service_hosted', name: 'Blog', host: null });
    const other = await newProjectId(acct.accountId, { kind: 'service_hosted', host: null });
    const at = (day: number) => new Date(Date.UTC(2026, 10, day));
    ids.newest = await insertItem(acct.accountId, {
      projectId,
      slug: 'newest',
      site_entry_url: 'https://www.acme.test/blog/newest',
      published_at: at(20),
    });
    ids.middle = await insertItem(acct.accountId, {
      projectId,
      slug: 'middle',
      site_entry_url: 'https://www.acme.test/blog/middle',
      published_at: at(10),
    });
    ids.canonical = await insertItem(acct.accountId, {
      projectId,
      slug: null,
      canonical_url: 'https://medium.test/p',
      published_at: at(5),
    });
    ids.oldest = await insertItem(acct.accountId, {
      projectId,
      slug: 'oldest',
      site_entry_url: 'https://www.acme.test/blog/oldest',
      published_at: at(1),
    });
    await insertItem(acct.accountId, { projectId, slug: 'no-url-1' });
    await insertItem(acct.accountId, { projectId, slug: 'no-url-2' });
    await insertItem(acct.accountId, { projectId, status: 'draft', site_entry_url: 'https://www.acme.test/blog/draft' });
    await insertItem(acct.accountId, { projectId: other, site_entry_url: 'https://www.acme.test/blog/other-project' });
    await insertItem(acct.accountId, { site_entry_url: 'https://www.acme.test/blog/unlinked' });
  });

  it('project_id_required: no project_id, or an empty one, is 400', async () => {
    assert.equal((await get({}, 400)).body.code, 'project_id_required');
    assert.equal((await get({ project_id: '' }, 400)).body.code, 'project_id_required');
  });

  it("project_not_found: an unknown id, another account's project and a malformed id are 404", async () => {
    const stranger = await newAccount('Stranger Co');
    const foreign = await newProjectId(stranger.accountId, { kind: 'service_hosted' });
    for (const id of [randomUUID(), foreign, 'not-a-uuid']) {
      assert.equal((await get({ project_id: id }, 404)).body.code, 'project_not_found', id);
    }
  });

  it('the path is the site-links route, not an item id (no content_not_found)', async () => {
    const res = await get({ project_id: projectId });
    assert.ok(Array.isArray(res.body.data));
  });

  it('content_item records: published items of the project with a url, newest first; posts.without_url counts the rest', async () => {
    const res = await get({ project_id: projectId });
    assert.deepEqual(
      res.body.data.map((l: { id: string }) => l.id),
      [ids.newest, ids.middle, ids.canonical, ids.oldest],
    );
    assert.deepEqual(res.body.data[0], {
      id: ids.newest,
      title: res.body.data[0].title,
      url: 'https://www.acme.test/blog/newest',
      type: 'post',
      published_at: '2026-11-20T00:00:00.000Z',
      slug: 'newest',
      source: 'content_item',
    });
    assert.equal(res.body.data[2].url, 'https://medium.test/p');
    assert.equal(res.body.total, 4);
    assert.equal(res.body.capped, false);
    assert.deepEqual(res.body.project, { id: projectId, name: 'Blog', host: null });
    assert.deepEqual(res.body.posts, { listed: 4, without_url: 2 });
    assert.deepEqual(res.body.pages, { listed: 0 });
    assert.deepEqual(codes(res), ['no_host']);
  });

  it('limit defaults to 500 and may be 500; capped says when the limit cut the list', async () => {
    const cut = await get({ project_id: projectId, limit: 2 });
    assert.equal(cut.body.data.length, 2);
    assert.equal(cut.body.total, 4);
    assert.equal(cut.body.capped, true);
    assert.deepEqual(cut.body.posts, { listed: 2, without_url: 2 });
    const exact = await get({ project_id: projectId, limit: 4 });
    assert.equal(exact.body.capped, false);
    assert.equal((await get({ project_id: projectId, limit: 500 })).body.data.length, 4);
  });

  it('limit defaults to 500: a project with 501 linked items answers 500 of them, capped', async () => {
    const big = await newProjectId(acct.accountId, { kind: 'service_hosted', host: null });
    const link = JSON.stringify({ project_id: big, collection_id: 'blog', item_id: null });
    const rows = Array.from({ length: 501 }, (_, i) => ({
      account_id: acct.accountId,
      title: `Bulk ${i}`,
      status: 'published',
      published_at: new Date(),
      canonical_url: `https://bulk.test/${i}`,
      cms_link: link,
    }));
    await harness().db.batchInsert('content_items', rows, 200);
    const res = await get({ project_id: big });
    assert.equal(res.body.data.length, 500);
    assert.equal(res.body.total, 501);
    assert.equal(res.body.capped, true);
  });

  it('limit above 500, below 1 or not a number is 400 validation_failed (as every strict list); so is an unknown parameter', async () => {
    for (const limit of ['501', '0', 'ten']) {
      assert.equal((await get({ project_id: projectId, limit }, 400)).body.code, 'validation_failed', limit);
    }
    assert.equal((await get({ project_id: projectId, page: 2 }, 400)).body.code, 'validation_failed');
  });

  it('needs an agent key with marketing.content read', async () => {
    const key = await newAgentKey(acct.accountId, ['projects:read']);
    await getSiteLinks(harness().baseUrl, key, { project_id: projectId }, 403);
  });
});
