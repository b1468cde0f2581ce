import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { createItem } from './fixtures';

type Expected = { url: string | null; url_source: string | null };

/**
 * doc1: the agent get adds url and url_source, every list adds url. Sources in order: the platform CMS entry the item was
 * published to (site_entry_url), the service-hosted project's host and route, canonical_url; else null.
 */
describe('content item url and url_source', () => {
  let acct: TestAccount;
  const expected = new Map<string, Expected>();

  /** An item made through the API, then linked (cms_link) and stamped in the database as a publish would leave it. */
  async function item(body: Record<string, unknown>, row: { projectId?: string; siteEntryUrl?: string }, want: Expected, name: string) {
    const created = await createItem(acct.ownerToken, { title: name, ...body });
    const changes: Record<string, unknown> = {};
    if (row.projectId) changes.cms_link = JSON.stringify({ project_id: row.projectId, collection_id: 'blog', item_id: null });
    if (row.siteEntryUrl) changes.site_entry_url = row.siteEntryUrl;
    if (Object.keys(changes).length) await harness().db('content_items').where({ id: created.id }).update(changes);
    expected.set(created.id, want);
    return created.id as string;
  }

  before(async () => {
    acct = await newAccount();
    const served = await newProjectId(acct.accountId, { kind: 'service_hosted', host: 'www.acme.test' });
    const servedPlatformCms = await newProjectId(acct.accountId, {
      kind: 'service_hosted',
      host: 'cms.acme.test',
      content_source: 'site_platform',
    });
    const noHost = await newProjectId(acct.accountId, { kind: 'service_hosted', host: null });
    const platform = await newProjectId(acct.accountId, { kind: 'platform_hosted', host: 'plat.acme.test' });
    const entry = 'https://www.plat.test/posts/entry-slug';
    const published = { status: 'published' };

    await item(
      { ...published, slug: 'entry-slug' },
      { projectId: platform, siteEntryUrl: entry },
      { url: entry, url_source: 'site_platform_cms' },
      'platform entry',
    );
    await item(
      { ...published, slug: 'both', canonical_url: 'https://elsewhere.test/both' },
      { projectId: served, siteEntryUrl: entry },
      { url: entry, url_source: 'site_platform_cms' },
      'entry wins over host and canonical',
    );
    await item(
      { ...published, slug: 'fix-a-leak' },
      { projectId: served },
      { url: 'https://www.acme.test/blog/fix-a-leak', url_source: 'service_hosted' },
      'served post',
    );
    await item(
      { ...published, slug: 'acme-kitchen', content_type: 'case_study' },
      { projectId: served },
      { url: 'https://www.acme.test/case-studies/acme-kitchen', url_source: 'service_hosted' },
      'served case study',
    );
    await item(
      { ...published, slug: 'host-over-canonical', canonical_url: 'https://medium.test/x' },
      { projectId: served },
      { url: 'https://www.acme.test/blog/host-over-canonical', url_source: 'service_hosted' },
      'host wins over canonical',
    );
    await item(
      { slug: 'draft-with-canonical', canonical_url: 'https://medium.test/draft' },
      { projectId: served },
      { url: 'https://medium.test/draft', url_source: 'canonical_url' },
      'draft with canonical',
    );
    await item({ slug: 'draft' }, { projectId: served }, { url: null, url_source: null }, 'draft of a served project');
    await item(
      { slug: 'unpublished' },
      { projectId: platform, siteEntryUrl: entry },
      { url: null, url_source: null },
      'entry of an unpublished item',
    );
    await item(
      { ...published, slug: 'platform-cms' },
      { projectId: servedPlatformCms },
      { url: null, url_source: null },
      'platform CMS not stamped yet',
    );
    await item({ ...published, slug: 'no-host' }, { projectId: noHost }, { url: null, url_source: null }, 'project without host');
    await item(
      { ...published, slug: 'platform-hosted' },
      { projectId: platform },
      { url: null, url_source: null },
      'platform-hosted without entry',
    );
    await item({ ...published }, { projectId: served }, { url: null, url_source: null }, 'no slug');
    await item({ ...published, slug: 'unlinked' }, {}, { url: null, url_source: null }, 'unlinked');
    await item(
      { ...published, slug: 'unlinked-canonical', canonical_url: 'https://medium.test/u' },
      {},
      { url: 'https://medium.test/u', url_source: 'canonical_url' },
      'unlinked with canonical',
    );
  });

  it('the agent get answers url and url_source by the first rule that applies', async () => {
    for (const [id, want] of expected) {
      const res = await call('GET', `/api/agent/marketing/content/${id}`, { token: acct.agentKey });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual({ url: res.body.url, url_source: res.body.url_source }, want, res.body.title);
    }
  });

  it('the dashboard and agent lists carry the same url on every item (and no url_source)', async () => {
    for (const [path, token] of [
      ['/api/marketing/content?limit=100', acct.ownerToken],
      ['/api/agent/marketing/content?limit=100', acct.agentKey],
    ] as const) {
      const res = await call('GET', path, { token });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.length, expected.size);
      for (const listed of res.body.data) {
        assert.equal(listed.url, expected.get(listed.id)!.url, listed.title);
        assert.ok(!('url_source' in listed));
      }
    }
  });

  it('a list reads the projects of its items in one query, not one per item', async () => {
    const { db } = harness();
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => statements.push(q.sql);
    db.on('query', onQuery);
    try {
      const res = await call('GET', '/api/agent/marketing/content?limit=100', { token: acct.agentKey });
      assert.equal(res.status, 200);
    } finally {
      db.off('query', onQuery);
    }
    assert.equal(statements.filter((s) => /from "projects"/.test(s)).length, 1, statements.join('\n'));
  });
});
