import assert from 'node:assert/strict';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { upsertPages } from '../../../src/sitePlatform/webhooks/pageIndexStore';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { addSite, connectWithSiteToken, startSiteWorld, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import { newTenant } from '../../sitePlatform/operations/fixtures';
import { codes, getSiteLinks, insertItem } from './fixtures';

/**
 * doc1 site-links `page_list`: a platform-hosted project's pages come from the site platform's live page list (through
 * the operation runner), with the site's domain; when the platform cannot be read, from the account's page index.
 */
describe('site links: page list of a platform-hosted project', () => {
  let world: SiteWorld;
  before(async () => {
    world = await startSiteWorld();
  });
  after(async () => {
    await world.close();
  });

  it("lists the site's live pages at <short_name>.webflow.io + published path; drafts, archived and template pages are left out", async () => {
    const tenant = await newTenant(world);
    const shortName = world.sim.site(tenant.siteId)!.shortName;
    const about = world.sim.addPage(tenant.siteId, { title: 'About us', slug: 'about' });
    world.sim.addPage(tenant.siteId, { title: 'Draft page' }).draft = true;
    world.sim.addPage(tenant.siteId, { title: 'Old page' }).archived = true;
    world.sim.addPage(tenant.siteId, { title: 'Post template' }).collectionId = tenant.collectionId;
    const res = await getSiteLinks(world.app.baseUrl, tenant.account.agentKey, { project_id: tenant.projectId });
    assert.deepEqual(
      res.body.data.map((l: { id: string; url: string; source: string; type: string }) => [l.id, l.url, l.source, l.type]),
      [
        [tenant.pageId, `https://${shortName}.webflow.io/home`, 'page_list', 'page'],
        [about.id, `https://${shortName}.webflow.io/about`, 'page_list', 'page'],
      ],
    );
    assert.deepEqual(res.body.data[1], {
      id: about.id,
      title: 'About us',
      url: `https://${shortName}.webflow.io/about`,
      type: 'page',
      published_at: null,
      slug: 'about',
      source: 'page_list',
    });
    assert.deepEqual(res.body.pages, { listed: 2 });
    assert.deepEqual(codes(res), []);
  });

  it('uses the first custom domain; a content item whose url is a page url is listed once, as content_item', async () => {
    const account = await newAccount();
    const site = addSite(world, 'Shop', { customDomains: ['www.shop.test', 'shop.test'] });
    world.sim.addPage(site.id, { title: 'Pricing', slug: 'pricing' });
    world.sim.addPage(site.id, { title: 'Launch', slug: 'launch' });
    await connectWithSiteToken(world, account, [site.id]);
    const projectId = await newProjectId(account.accountId, { kind: 'platform_hosted', name: 'Shop', host: 'www.shop.test' });
    await saveBinding(harness().db, account.accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: site.id });
    const itemId = await insertItem(account.accountId, { projectId, slug: 'launch', site_entry_url: 'https://www.shop.test/launch/' });
    const res = await getSiteLinks(world.app.baseUrl, account.agentKey, { project_id: projectId });
    assert.deepEqual(
      res.body.data.map((l: { url: string; source: string }) => [l.source, l.url]),
      [
        ['content_item', 'https://www.shop.test/launch/'],
        ['page_list', 'https://www.shop.test/pricing'],
      ],
    );
    assert.equal(res.body.data[0].id, itemId);
    assert.deepEqual(res.body.posts, { listed: 1, without_url: 0 });
    assert.deepEqual(res.body.pages, { listed: 1 });
  });

  it('when the platform cannot be read, the pages come from the page index with a page_list_unavailable note', async () => {
    const tenant = await newTenant(world);
    const shortName = world.sim.site(tenant.siteId)!.shortName;
    await upsertPages(harness().db, tenant.account.accountId, tenant.siteId, [
      { pageId: 'pg_indexed', title: 'Indexed page', publishedPath: '/indexed', pageUpdatedAt: null },
      { pageId: 'pg_unpublished', title: 'No path', publishedPath: null, pageUpdatedAt: null },
    ]);
    world.sim.injectFault({ kind: '5xx', status: 503, path: '/pages', times: 20 });
    try {
      const res = await getSiteLinks(world.app.baseUrl, tenant.account.agentKey, { project_id: tenant.projectId });
      assert.deepEqual(
        res.body.data.map((l: { id: string; url: string; source: string }) => [l.id, l.url, l.source]),
        [['pg_indexed', `https://${shortName}.webflow.io/indexed`, 'page_list']],
      );
      assert.deepEqual(codes(res), ['page_list_unavailable']);
      assert.match(res.body.notes[0].message, /platform_upstream/);
    } finally {
      world.sim.clearFaults();
    }
  });

  it('a platform-hosted project with no site is crawled instead (no_site), and without a host says so (no_host)', async () => {
    const account = await newAccount();
    const projectId = await newProjectId(account.accountId, { kind: 'platform_hosted', host: null });
    await insertItem(account.accountId, { projectId, canonical_url: 'https://medium.test/a' });
    const res = await getSiteLinks(world.app.baseUrl, account.agentKey, { project_id: projectId });
    assert.deepEqual(
      res.body.data.map((l: { source: string }) => l.source),
      ['content_item'],
    );
    assert.deepEqual(codes(res), ['no_site', 'no_host']);
  });
});
