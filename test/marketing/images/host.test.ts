import assert from 'node:assert/strict';
import { hostImage, type HostRequest } from '../../../src/marketing/images/host';
import { LIBRARY_ROW_WARNING } from '../../../src/marketing/images/outputStore';
import type { SitePlatformDeps } from '../../../src/sitePlatform/connections/deps';
import { harness } from '../../helpers/harness';
import { depsOf, startSiteWorld, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import { newTenant, platformCallsSince, type Tenant } from '../../sitePlatform/operations/fixtures';
import { createItem, image } from '../media/fixtures';

describe('content images: hosting, the media library row and the output record', () => {
  let world: SiteWorld;
  let t: Tenant;
  let deps: SitePlatformDeps;
  let contentId: string;
  let png: Buffer;
  let n = 0;

  before(async () => {
    world = await startSiteWorld();
    t = await newTenant(world);
    deps = depsOf(world);
    contentId = await createItem(t.account.accountId, 'Heat pumps in old houses');
    png = await image('png', 96, 64);
  });
  after(async () => {
    await world.close();
  });

  const request = (host: HostRequest['host'], extra: Partial<HostRequest> = {}): HostRequest => ({
    accountId: t.account.accountId,
    contentId,
    unitKey: `content-images:test:${++n}:hero`,
    slot: 'hero',
    bytes: png,
    mimeType: 'image/png',
    width: 96,
    height: 64,
    alt: 'A heat pump beside an old brick house',
    host,
    publicBaseUrl: harness().baseUrl,
    actor: async () => 'workflow:test-run',
    ...extra,
  });
  const onPlatform = () => ({ kind: 'site_platform' as const, projectId: t.projectId, siteId: t.siteId });
  const inMediaStore = { kind: 'media_store' as const };
  const db = () => harness().db;
  const outputRow = (unitKey: string) =>
    db()('content_image_outputs').where({ account_id: t.account.accountId, unit_key: unitKey }).first();
  const countAssets = async () => Number((await db()('media_assets').where({ account_id: t.account.accountId }).count({ n: '*' }))[0].n);

  it('on the platform CMS the image is uploaded to the site with its alt text, registered in the library tagged content_image and content:<id>, attached under its slot, and recorded', async () => {
    const req = request(onPlatform(), { slot: 'section:2', unitKey: 'content-images:test:platform:section:2' });
    const hosted = await hostImage(deps, req);

    assert.equal(hosted.hostedOn, 'site_platform');
    const simAsset = world.sim.siteData(t.siteId).assets.find((a) => a.id === hosted.platformAssetId);
    assert.ok(simAsset, 'the asset is in the site asset library');
    assert.equal(simAsset.size, png.length, 'the bytes arrived');
    assert.equal(simAsset.altText, req.alt);
    assert.equal(hosted.url, `https://cdn.sim.test/${t.siteId}/${simAsset.id}_${contentId.slice(0, 8)}-section-2.png`);
    assert.deepEqual([hosted.width, hosted.height, hosted.mimeType, hosted.warnings], [96, 64, 'image/png', []]);

    const asset = await db()('media_assets').where({ id: hosted.assetId }).first();
    assert.deepEqual(asset.tags, ['content_image', `content:${contentId}`]);
    assert.equal(asset.alt_text, req.alt);
    assert.ok(Buffer.from(asset.data).equals(png), 'the library row keeps the bytes');
    const attached = await db()('content_item_images').where({ content_id: contentId, asset_id: hosted.assetId }).first();
    assert.equal(attached.placement, 'section:2');

    const row = await outputRow(req.unitKey);
    assert.deepEqual(
      [row.hosted_on, row.url, row.asset_id, row.platform_asset_id, row.byte_size, row.content_id],
      ['site_platform', hosted.url, hosted.assetId, hosted.platformAssetId, png.length, contentId],
    );
  });

  it('a second call with the same unit key answers the recorded image and uploads and writes nothing', async () => {
    const req = request(onPlatform());
    const first = await hostImage(deps, req);
    const mark = world.sim.requests().length;
    const assets = await countAssets();

    const again = await hostImage(deps, req);
    assert.deepEqual(again, first);
    assert.deepEqual(platformCallsSince(world, mark), []);
    assert.equal(await countAssets(), assets);
  });

  it('in the media store the library row is the host: the URL is publicBaseUrl + /media/<token>/<file> and serves the bytes, with no platform call', async () => {
    const req = request(inMediaStore);
    const mark = world.sim.requests().length;
    const hosted = await hostImage(deps, req);

    assert.deepEqual([hosted.hostedOn, hosted.platformAssetId, hosted.warnings], ['media_store', null, []]);
    const asset = await db()('media_assets').where({ id: hosted.assetId }).first();
    assert.equal(hosted.url, `${harness().baseUrl}/media/${asset.public_token}/${contentId.slice(0, 8)}-hero.png`);
    assert.deepEqual(asset.tags, ['content_image', `content:${contentId}`]);
    const served = await fetch(hosted.url);
    assert.equal(served.status, 200);
    assert.ok(Buffer.from(await served.arrayBuffer()).equals(png));
    assert.equal((await db()('content_item_images').where({ asset_id: hosted.assetId }).first()).placement, 'hero');
    assert.equal((await outputRow(req.unitKey)).asset_id, hosted.assetId);
    assert.deepEqual(platformCallsSince(world, mark), []);

    assert.deepEqual(await hostImage(deps, req), hosted, 'idempotent by unit key here too');
  });

  for (const where of ['media_store', 'site_platform'] as const) {
    it(`two attempts at once with one unit key (${where}) answer the same image and leave one record and one library row`, async () => {
      const req = request(where === 'media_store' ? inMediaStore : onPlatform());
      const assets = await countAssets();
      const [a, b] = await Promise.all([hostImage(deps, req), hostImage(deps, req)]);
      assert.deepEqual(a, b);
      assert.equal(await countAssets(), assets + 1);
      assert.equal((await db()('content_image_outputs').where({ unit_key: req.unitKey })).length, 1);
    });
  }

  describe('when the media library row cannot be written (a real insert failure: a trigger refuses the account)', () => {
    before(async () => {
      await db().raw(`
        create or replace function test_refuse_media_insert() returns trigger language plpgsql as $$
        begin
          if new.account_id = '${t.account.accountId}' then raise exception 'test: media library insert refused'; end if;
          return new;
        end $$`);
      await db().raw(
        'create trigger test_refuse_media_insert before insert on media_assets for each row execute function test_refuse_media_insert()',
      );
    });
    after(async () => {
      await db().raw('drop trigger if exists test_refuse_media_insert on media_assets');
      await db().raw('drop function if exists test_refuse_media_insert()');
    });

    it('a platform-hosted image is still recorded, with asset_id null and the warning, and answered so again', async () => {
      const req = request(onPlatform());
      const assets = await countAssets();
      const hosted = await hostImage(deps, req);

      assert.equal(hosted.assetId, null);
      assert.ok(hosted.platformAssetId);
      assert.match(hosted.url, /^https:\/\/cdn\.sim\.test\//);
      assert.deepEqual(hosted.warnings, [LIBRARY_ROW_WARNING]);
      assert.equal(await countAssets(), assets);
      const row = await outputRow(req.unitKey);
      assert.deepEqual([row.asset_id, row.url], [null, hosted.url]);

      const mark = world.sim.requests().length;
      assert.deepEqual(await hostImage(deps, req), hosted);
      assert.deepEqual(platformCallsSince(world, mark), []);
    });

    it('in the media store, where the library row is the host, the call throws and records nothing', async () => {
      const req = request(inMediaStore);
      await assert.rejects(hostImage(deps, req), /media library insert refused/);
      assert.equal(await outputRow(req.unitKey), undefined);
    });
  });

  it('a failed platform upload propagates and records nothing (the activity retries)', async () => {
    const req = request(onPlatform());
    world.sim.injectFault({ kind: '5xx', status: 503, path: `/sites/${t.siteId}/assets`, times: 20 });
    try {
      await assert.rejects(hostImage(deps, req));
    } finally {
      world.sim.clearFaults();
    }
    assert.equal(await outputRow(req.unitKey), undefined);
  });
});
