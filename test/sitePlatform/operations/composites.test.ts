import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { SNIPPET } from '../../../src/sitePlatform/operations/composites/serviceSnippet';
import { addClient, addSite, authorize, openCallback, registerClient, type SiteWorld } from '../connections/fixtures';
import { OPS, auditRows, newTenant, platformCallsSince, query, type Tenant, useTenantWorld } from './fixtures';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a80000000049454e44ae426082',
  'hex',
);

describe('site platform composite operations (asset_upload, page_query, service snippet)', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });
  afterEach(() => world.sim.clearFaults());

  const post = (token: string, body: Record<string, unknown>, key?: string) =>
    world.app.call('POST', OPS, { token, body, headers: key ? { 'idempotency-key': key } : undefined });
  const get = (token: string, params: Record<string, string>) => world.app.call('GET', `${OPS}${query(params)}`, { token });

  describe('asset_upload', () => {
    it("creates the asset record with the file's MD5, uploads the bytes to the presigned target, and answers the hosted asset", async () => {
      const mark = world.sim.requests().length;
      const res = await post(t.account.agentKey, {
        action: 'asset_upload',
        site_id: t.siteId,
        fileName: 'dot.png',
        content_base64: PNG.toString('base64'),
      });
      assert.equal(res.status, 200, res.text);
      const asset = res.body.result;
      assert.equal(asset.fileHash, createHash('md5').update(PNG).digest('hex'));
      assert.equal(asset.size, PNG.length);
      assert.match(asset.hostedUrl, /dot\.png$/);
      assert.equal(asset.uploadUrl, undefined, 'the presigned target is not handed out');
      const stored = world.sim.siteData(t.siteId).assets.find((a) => a.id === asset.id)!;
      assert.equal(stored.uploaded, true);
      assert.equal(stored.size, PNG.length);
      const calls = platformCallsSince(world, mark);
      assert.deepEqual(calls.slice(0, 2), [`POST /v2/sites/${t.siteId}/assets`, `POST /uploads/${asset.id}`]);
      assert.ok((await auditRows(t.account.accountId)).some((r) => r.action === 'platform.asset_upload'));
    });

    it('a failed second step is 424 asset_upload_incomplete naming the orphan record; the same request replays it (a 4xx stays cached), a re-run under a new key finishes', async () => {
      world.sim.injectFault({ kind: '5xx', status: 503, path: '/uploads/' });
      const body = { action: 'asset_upload', site_id: t.siteId, fileName: 'again.png', content_base64: PNG.toString('base64') };
      const failed = await post(t.account.agentKey, body);
      assert.equal(failed.status, 424, failed.text);
      assert.equal(failed.body.code, 'asset_upload_incomplete');
      assert.ok(failed.body.asset_id);
      assert.equal(world.sim.siteData(t.siteId).assets.find((a) => a.id === failed.body.asset_id)?.uploaded, false);
      const replayed = await post(t.account.agentKey, body);
      assert.equal(replayed.status, 424);
      assert.equal(replayed.body.asset_id, failed.body.asset_id);
      const retried = await post(t.account.agentKey, body, `rerun-${Date.now()}`);
      assert.equal(retried.status, 200, retried.text);
      assert.equal(world.sim.siteData(t.siteId).assets.find((a) => a.id === retried.body.result.id)?.uploaded, true);
    });

    it('content that is not base64, or empty, is 400 and nothing reaches the platform', async () => {
      const mark = world.sim.requests().length;
      const bad = await post(t.account.agentKey, {
        action: 'asset_upload',
        site_id: t.siteId,
        fileName: 'x.png',
        content_base64: 'not base64 ✗',
      });
      assert.equal(bad.status, 400, bad.text);
      const missing = await post(t.account.agentKey, { action: 'asset_upload', site_id: t.siteId, fileName: 'x.png' });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.code, 'validation_failed');
      assert.deepEqual(platformCallsSince(world, mark), []);
    });
  });

  describe('page_query', () => {
    let siteId: string;
    let account: TestAccount;
    before(async () => {
      const tenant = await newTenant(world);
      siteId = tenant.siteId;
      account = tenant.account;
      for (let i = 0; i < 230; i += 1) world.sim.addPage(siteId, { title: i === 217 ? 'Pricing plans' : `Page ${i}` });
    });

    it('scans the page list client-side, 100 per call, and finds a match past the first call', async () => {
      const mark = world.sim.requests().length;
      const res = await get(account.agentKey, { action: 'page_query', site_id: siteId, query: 'pricing' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.result.pages.map((p: any) => p.title),
        ['Pricing plans'],
      );
      assert.equal(res.body.result.capped, false);
      assert.equal(res.body.result.scanned, res.body.result.total);
      assert.equal(platformCallsSince(world, mark).length, 3);
    });

    it('an empty result with capped true means "not in the pages scanned", not "no such page"', async () => {
      const res = await get(account.agentKey, { action: 'page_query', site_id: siteId, query: 'pricing', max_pages: '150' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.result.pages, []);
      assert.equal(res.body.result.capped, true);
      assert.equal(res.body.result.scanned, 150);
      assert.ok(res.body.result.total > 150);
    });

    it('is a read: sent as POST it is 400 wrong_verb', async () => {
      const res = await post(account.agentKey, { action: 'page_query', site_id: siteId, query: 'pricing' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'wrong_verb');
    });
  });

  describe('service snippet', () => {
    let account: TestAccount;
    let siteId: string;
    before(async () => {
      account = await newAccount();
      siteId = addSite(world, 'Snippet').id;
      await registerClient(world, account, addClient(world, [siteId]));
      const connected = await openCallback(await authorize(world, account, { intent: 'site_account_connect' }));
      assert.equal(connected.status, 200, connected.text);
    });
    const ourApplied = () => (world.sim.siteData(siteId).siteCode?.scripts ?? []).filter((s) => s.id === 'workyard-snippet');

    it('install asks for confirm like its OFF half (412 confirm_required)', async () => {
      const res = await post(account.agentKey, { action: 'service_snippet_install', site_id: siteId });
      assert.equal(res.status, 412);
      assert.equal(res.body.code, 'confirm_required');
    });

    it('a failed apply after registering is 424 snippet_apply_failed; re-running adopts the registration and finishes', async () => {
      world.sim.injectFault({ kind: '5xx', status: 500, path: /\/custom_code$/ });
      const failed = await post(account.agentKey, { action: 'service_snippet_install', site_id: siteId, confirm: true });
      assert.equal(failed.status, 424, failed.text);
      assert.equal(failed.body.code, 'snippet_apply_failed');
      assert.equal(world.sim.siteData(siteId).scripts.filter((s) => s.displayName === SNIPPET.displayName).length, 1);
      assert.deepEqual(ourApplied(), []);

      const done = await post(
        account.agentKey,
        { action: 'service_snippet_install', site_id: siteId, confirm: true },
        `rerun-${Date.now()}`,
      );
      assert.equal(done.status, 200, done.text);
      assert.equal(done.body.result.registered, false, 'the earlier registration is adopted, not duplicated');
      assert.equal(world.sim.siteData(siteId).scripts.filter((s) => s.displayName === SNIPPET.displayName).length, 1);
      assert.deepEqual(
        ourApplied().map((s) => [s.version, s.location]),
        [[SNIPPET.version, 'footer']],
      );
    });

    it("install keeps the site's other scripts; remove takes only ours away", async () => {
      const other = await post(account.agentKey, {
        action: 'script_register_inline',
        site_id: siteId,
        displayName: 'Chat widget',
        version: '2.0.0',
        sourceCode: 'console.log(1)',
      });
      assert.equal(other.status, 200, other.text);
      const withOther = [
        ...world.sim.siteData(siteId).siteCode!.scripts,
        { id: other.body.result.id, version: '2.0.0', location: 'footer' },
      ];
      const applied = await post(account.agentKey, {
        action: 'site_customcode_upsert',
        site_id: siteId,
        confirm: true,
        scripts: withOther,
      });
      assert.equal(applied.status, 200, applied.text);
      const again = await post(account.agentKey, { action: 'service_snippet_install', site_id: siteId, confirm: true, location: 'header' });
      assert.equal(again.status, 200, again.text);
      assert.deepEqual(
        world.sim
          .siteData(siteId)
          .siteCode!.scripts.map((s) => s.id)
          .sort(),
        [other.body.result.id, 'workyard-snippet'].sort(),
      );

      const removed = await post(account.agentKey, { action: 'service_snippet_remove', site_id: siteId, confirm: true });
      assert.equal(removed.status, 200, removed.text);
      assert.equal(removed.body.result.removed, true);
      assert.deepEqual(
        world.sim.siteData(siteId).siteCode!.scripts.map((s) => s.id),
        [other.body.result.id],
      );
      const twice = await post(
        account.agentKey,
        { action: 'service_snippet_remove', site_id: siteId, confirm: true },
        `again-${Date.now()}`,
      );
      assert.equal(twice.status, 200, twice.text);
      assert.equal(twice.body.result.removed, false);
    });

    it('a site token is refused with 412 oauth_required before the platform is called', async () => {
      const mark = world.sim.requests().length;
      const res = await post(t.account.agentKey, { action: 'service_snippet_install', site_id: t.siteId, confirm: true });
      assert.equal(res.status, 412);
      assert.equal(res.body.code, 'oauth_required');
      assert.deepEqual(platformCallsSince(world, mark), []);
    });
  });
});
