import assert from 'node:assert/strict';
import { newAccount } from '../../helpers/accounts';
import { uuid, type SiteWorld } from '../connections/fixtures';
import { OPS, auditRows, newTenant, platformCallsSince, query, type Tenant, useTenantWorld } from './fixtures';

describe('site platform operation routes: actions, verbs and gates', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  const post = (token: string, body: Record<string, unknown>) => world.app.call('POST', OPS, { token, body });
  const get = (token: string, params: Record<string, string>) => world.app.call('GET', `${OPS}${query(params)}`, { token });

  it('an unknown or missing action is 400 unknown_action', async () => {
    assert.equal((await get(t.account.agentKey, { action: 'site_nuke' })).body.code, 'unknown_action');
    const res = await post(t.account.agentKey, { site_id: t.siteId });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'unknown_action');
  });

  it('a read sent as POST or a write sent as GET is 400 wrong_verb and never reaches the platform', async () => {
    const mark = world.sim.requests().length;
    const asPost = await post(t.account.agentKey, { action: 'cms_collection_list', site_id: t.siteId });
    assert.equal(asPost.status, 400);
    assert.equal(asPost.body.code, 'wrong_verb');
    const asGet = await get(t.account.agentKey, {
      action: 'cms_item_update',
      site_id: t.siteId,
      collection_id: t.collectionId,
      item_id: t.itemIds[0],
    });
    assert.equal(asGet.status, 400);
    assert.equal(asGet.body.code, 'wrong_verb');
    assert.deepEqual(platformCallsSince(world, mark), []);
  });

  it('a read runs through the platform and answers its body', async () => {
    const res = await get(t.account.agentKey, { action: 'cms_collection_list', site_id: t.siteId });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.action, 'cms_collection_list');
    assert.deepEqual(
      res.body.result.collections.map((c: any) => c.id),
      [t.collectionId],
    );
  });

  it("a site_id that is not one of the account's sites is 404, also for another account's site", async () => {
    const other = await newTenant(world);
    const mark = world.sim.requests().length;
    const foreign = await get(t.account.agentKey, { action: 'cms_collection_list', site_id: other.siteId });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'site_not_found');
    const unknown = await get(t.account.agentKey, { action: 'site_get', site_id: 'site_nope' });
    assert.equal(unknown.status, 404);
    assert.deepEqual(platformCallsSince(world, mark), []);
  });

  it("a project_id of another account answers 404 project_not_found like an unknown one, never through the other's binding", async () => {
    const other = await newTenant(world);
    const mark = world.sim.requests().length;
    const res = await get(t.account.agentKey, { action: 'cms_collection_list', project_id: other.projectId });
    const fresh = await get(t.account.agentKey, { action: 'cms_collection_list', project_id: uuid() });
    assert.deepEqual([res.status, res.body.code], [fresh.status, fresh.body.code]);
    assert.deepEqual([res.status, res.body.code], [404, 'project_not_found']);
    assert.deepEqual(platformCallsSince(world, mark), []);
    const malformed = await get(t.account.agentKey, { action: 'cms_collection_list', project_id: 'not-a-uuid' });
    assert.deepEqual([malformed.status, malformed.body.code], [404, 'project_not_found']);
  });

  it('an account with no connection is 412 site_platform_not_connected', async () => {
    const bare = await newAccount();
    const res = await get(bare.agentKey, { action: 'site_list' });
    assert.equal(res.status, 412);
    assert.equal(res.body.code, 'site_platform_not_connected');
  });

  it('a scope never granted is 412 missing_scopes before confirm is looked at', async () => {
    const narrow = await newTenant(world, { scopes: ['sites:read', 'cms:read'] });
    const res = await post(narrow.account.agentKey, {
      action: 'cms_item_delete',
      site_id: narrow.siteId,
      collection_id: narrow.collectionId,
      item_id: narrow.itemIds[0],
    });
    assert.equal(res.status, 412);
    assert.equal(res.body.code, 'missing_scopes');
    assert.deepEqual(res.body.missing_scopes, ['cms:write']);
  });

  it('a confirm-gated write without confirm true is 412 confirm_required and changes nothing', async () => {
    const res = await post(t.account.agentKey, {
      action: 'cms_item_delete',
      site_id: t.siteId,
      collection_id: t.collectionId,
      item_id: t.itemIds[2],
      confirm: 'yes',
    });
    assert.equal(res.status, 412);
    assert.equal(res.body.code, 'confirm_required');
    assert.ok(world.sim.item(t.collectionId, t.itemIds[2]));
  });

  it('a site token calling an OAuth-only operation is 412 oauth_required', async () => {
    const res = await get(t.account.agentKey, { action: 'token_authorized_by' });
    assert.equal(res.status, 412);
    assert.equal(res.body.code, 'oauth_required');
  });

  it('a DOM write on a site without a secondary locale is 412 secondary_locale_required and says so', async () => {
    const res = await post(t.account.agentKey, {
      action: 'page_dom_update',
      site_id: t.siteId,
      page_id: t.pageId,
      localeId: 'x',
      nodes: [{ nodeId: 'n1', text: 'Hi' }],
    });
    assert.equal(res.status, 412);
    assert.equal(res.body.code, 'secondary_locale_required');
    assert.match(res.body.message, /no secondary locale/);
  });

  it('a DOM write on a multi-locale site needs localeId naming one of its secondary locales', async () => {
    const multi = await newTenant(world, { secondaryLocales: ['fr'] });
    const missing = await post(multi.account.agentKey, {
      action: 'page_dom_update',
      site_id: multi.siteId,
      page_id: multi.pageId,
      nodes: [{ nodeId: 'n1', text: 'Salut' }],
    });
    assert.equal(missing.body.code, 'secondary_locale_required');
    const foreign = await post(multi.account.agentKey, {
      action: 'page_dom_update',
      site_id: multi.siteId,
      page_id: multi.pageId,
      localeId: 'not-a-locale',
      nodes: [{ nodeId: 'n1', text: 'Salut' }],
    });
    assert.equal(foreign.status, 412);
    assert.equal(foreign.body.code, 'secondary_locale_required');
  });

  it('parameters failing the operation schema are 400 validation_failed with field errors', async () => {
    const res = await post(t.account.agentKey, { action: 'cms_item_create', site_id: t.siteId, collection_id: t.collectionId });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'validation_failed');
    assert.ok(res.body.errors.some((e: any) => e.path === 'fieldData'));
  });

  it('platform errors pass through as the client maps them', async () => {
    const missing = await get(t.account.agentKey, { action: 'cms_collection_get', site_id: t.siteId, collection_id: 'col_missing' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.upstreamStatus, 404);
    world.sim.injectFault({ kind: '5xx', status: 503, path: '/collections', times: 2 });
    try {
      // An uncached read (the collection list may be served from its snapshot).
      const down = await get(t.account.agentKey, {
        action: 'cms_item_get',
        site_id: t.siteId,
        collection_id: t.collectionId,
        item_id: t.itemIds[1],
      });
      assert.equal(down.status, 502);
      assert.equal(down.body.code, 'platform_upstream');
    } finally {
      world.sim.clearFaults();
    }
  });

  it('a successful write is audited once as platform.<action> by agent:<key name>; a refused one is not', async () => {
    const before = (await auditRows(t.account.accountId)).length;
    const res = await post(t.account.agentKey, {
      action: 'cms_item_update',
      site_id: t.siteId,
      collection_id: t.collectionId,
      item_id: t.itemIds[0],
      fieldData: { name: 'Renamed' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(world.sim.item(t.collectionId, t.itemIds[0])!.fieldData.name, 'Renamed');
    const rows = (await auditRows(t.account.accountId)).slice(before);
    assert.deepEqual(
      rows.map((r: any) => [r.action, r.actor, r.target]),
      [['platform.cms_item_update', 'agent:default', t.itemIds[0]]],
    );
    await post(t.account.agentKey, { action: 'cms_item_delete', site_id: t.siteId, collection_id: t.collectionId, item_id: t.itemIds[0] });
    assert.equal((await auditRows(t.account.accountId)).length, before + 1);
  });
});
