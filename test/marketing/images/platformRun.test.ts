import assert from 'node:assert/strict';
import { setContentSource } from '../../../src/sitePlatform/operations/contentSource';
import { harness } from '../../helpers/harness';
import { startSiteWorld, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import { newTenant, type Tenant } from '../../sitePlatform/operations/fixtures';
import { createItem, paragraph, runImages, startImageWorld, type ImageWorld } from './imageRunKit';

describe('image run on a project whose content source is the platform CMS', function () {
  this.timeout(120_000);
  let site: SiteWorld;
  let world: ImageWorld;
  let t: Tenant;

  before(async () => {
    site = await startSiteWorld();
    t = await newTenant(site);
    await setContentSource(harness().db, t.account.accountId, t.projectId, 'site_platform', t.siteId);
    world = await startImageWorld({ config: site.config, model: true });
  });
  after(async () => {
    await world?.stop();
    await site?.close();
  });

  it("hosts every image in the site's asset library, places the platform URLs, and audits the uploads as the run", async () => {
    const body = [
      '<h2>Choosing the right heat pump</h2>',
      paragraph('choice'),
      '<h2>Installing it in a weekend</h2>',
      paragraph('install'),
    ].join('');
    const id = await createItem(world.app, t.account.ownerToken, {
      body,
      cms_link: { project_id: t.projectId, collection_id: t.collectionId },
    });
    const assetsBefore = site.sim.siteData(t.siteId).assets.length;
    const res = await runImages(world.app, t.account.ownerToken, id);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.assets.length, 3);
    assert.equal(site.sim.siteData(t.siteId).assets.length, assetsBefore + 3);

    const item = (await world.app.call('GET', `/api/marketing/content/${id}`, { token: t.account.ownerToken })).body;
    for (const asset of res.body.assets) {
      assert.equal(asset.hosted_on, 'site_platform');
      assert.ok(asset.url.startsWith(`https://cdn.sim.test/${t.siteId}/`), asset.url);
      const onSite = site.sim.siteData(t.siteId).assets.find((a) => a.id === asset.platform_asset_id);
      assert.ok(onSite?.uploaded, 'the bytes were uploaded');
      assert.equal(onSite.altText, asset.alt);
      assert.ok(asset.asset_id, 'registered in the media library too');
      if (asset.slot === 'hero') assert.equal(item.featured_image_url, asset.url);
      else assert.ok(item.body.includes(`src="${asset.url}"`), `${asset.url} placed`);
    }
    const audits = await harness()
      .db('site_platform_audit')
      .where({ account_id: t.account.accountId, action: 'platform.asset_upload' })
      .select('actor');
    assert.equal(audits.length, 3);
    assert.ok(audits.every((a: { actor: string }) => a.actor.startsWith(`workflow:${res.body.run_id}:`)));
  });

  it('plans with the chat model when one is configured', async () => {
    const body = ['<h2>Why the compressor matters</h2>', paragraph('compressor'), '<h2>FAQ</h2>', paragraph('faq')].join('');
    const id = await createItem(world.app, t.account.ownerToken, { body });
    const res = await runImages(world.app, t.account.ownerToken, id, { body: { max_sections: 1 } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.planner, 'model');
    assert.ok(
      res.body.assets.every((a: { hosted_on: string }) => a.hosted_on === 'media_store'),
      'an unlinked item uses the media store',
    );
  });
});
