import assert from 'node:assert/strict';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { startSiteWorld, uuid, type SiteWorld } from '../../sitePlatform/connections/fixtures';
import { newTenant, platformCallsSince, type Tenant } from '../../sitePlatform/operations/fixtures';
import { future, rowCounts, storedRow } from './fixtures';

/**
 * doc1 Content item / States: a cms_link names a website project of the account and a CMS collection on the site that
 * project resolves to; otherwise 400 invalid_reference and nothing is written (so a bogus link never gets around
 * 409 not_linked). The collection is read from the site platform (simulator) through the snapshot cache.
 */
describe('cms_link names a project of the account and a collection on the site it resolves to', () => {
  let world: SiteWorld;
  let t: Tenant;
  let other: Tenant;
  before(async () => {
    world = await startSiteWorld();
    [t, other] = await Promise.all([newTenant(world), newTenant(world)]);
  });
  after(async () => {
    await world.close();
  });

  const link = (collectionId = t.collectionId, projectId = t.projectId) => ({ project_id: projectId, collection_id: collectionId });
  const create = (body: Record<string, unknown>, agent = false, who: Tenant = t) =>
    world.app.call('POST', `/api${agent ? '/agent' : ''}/marketing/content`, {
      token: agent ? who.account.agentKey : who.account.ownerToken,
      body: { title: 'Linked post', ...body },
    });
  const put = (id: string, body: unknown) => world.app.call('PUT', `/api/marketing/content/${id}`, { token: t.account.ownerToken, body });
  const patch = (id: string, body: unknown) =>
    world.app.call('PATCH', `/api/agent/marketing/content/${id}`, { token: t.account.agentKey, body });
  const newItem = async () => {
    const res = await create({});
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  function assertInvalidReference(
    res: { status: number; body: any; text: string },
    field: 'cms_link.project_id' | 'cms_link.collection_id',
  ) {
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'invalid_reference', res.text);
    assert.equal(res.body.field, field, res.text);
    assert.ok(
      res.body.errors.some((e: { path: string }) => e.path === `body.${field}`),
      res.text,
    );
  }

  it('an unknown project id with a future scheduled_publish_at is 400 invalid_reference on create (dashboard and agent), not a scheduled item', async () => {
    const counts = await rowCounts(t.account.accountId);
    for (const agent of [false, true]) {
      const res = await create({ cms_link: link('nope', uuid()), scheduled_publish_at: future() }, agent);
      assertInvalidReference(res, 'cms_link.project_id');
    }
    assert.deepEqual(await rowCounts(t.account.accountId), counts);
  });

  it("another account's project is 400 invalid_reference like an unknown one, on create, PUT and PATCH", async () => {
    const foreign = link(other.collectionId, other.projectId);
    const counts = await rowCounts(t.account.accountId);
    assertInvalidReference(await create({ cms_link: foreign }, true), 'cms_link.project_id');
    const item = await newItem();
    const after = await rowCounts(t.account.accountId);
    assertInvalidReference(await put(item.id, { ...item, cms_link: foreign }), 'cms_link.project_id');
    assertInvalidReference(await patch(item.id, { cms_link: foreign, scheduled_publish_at: future() }), 'cms_link.project_id');
    assert.deepEqual(await rowCounts(t.account.accountId), { items: counts.items + 1, versions: after.versions });
    const row = await storedRow(item.id);
    assert.equal(row.cms_link, null);
    assert.equal(row.scheduled_publish_at, null);
  });

  it("a collection that is not on the project's site (unknown, or another site's) is 400 invalid_reference, and nothing is written", async () => {
    const counts = await rowCounts(t.account.accountId);
    assertInvalidReference(await create({ cms_link: link('nope'), scheduled_publish_at: future() }, true), 'cms_link.collection_id');
    assertInvalidReference(await create({ cms_link: link(other.collectionId) }), 'cms_link.collection_id');
    assert.deepEqual(await rowCounts(t.account.accountId), counts);
    const item = await newItem();
    assertInvalidReference(await put(item.id, { ...item, cms_link: link('nope') }), 'cms_link.collection_id');
    assertInvalidReference(await patch(item.id, { cms_link: link(other.collectionId) }), 'cms_link.collection_id');
    assert.equal((await storedRow(item.id)).cms_link, null);
  });

  it('a project of the account that resolves to no site (connection disabled, or none) is 400 invalid_reference: no collection can exist there', async () => {
    const disabled = await newProjectId(t.account.accountId);
    await saveBinding(harness().db, t.account.accountId, disabled, { override_mode: 'disabled', connection_id: null, site_id: t.siteId });
    assertInvalidReference(await create({ cms_link: link(t.collectionId, disabled) }), 'cms_link.collection_id');

    const unconnected = await newAccount();
    const project = await newProjectId(unconnected.accountId);
    await saveBinding(harness().db, unconnected.accountId, project, { override_mode: 'inherit', connection_id: null, site_id: null });
    const res = await world.app.call('POST', '/api/agent/marketing/content', {
      token: unconnected.agentKey,
      body: { title: 'Nowhere', cms_link: { project_id: project, collection_id: t.collectionId } },
    });
    assertInvalidReference(res, 'cms_link.collection_id');
    assert.deepEqual(await rowCounts(unconnected.accountId), { items: 0, versions: 0 });
  });

  it("a project of the account is a row of projects: one made through /api/projects and bound to no site is the account's (refused on collection_id, no site), not an unknown project", async () => {
    const unbound = await newProjectId(t.account.accountId);
    const counts = await rowCounts(t.account.accountId);
    const res = await create({ cms_link: link(t.collectionId, unbound) }, true);
    assertInvalidReference(res, 'cms_link.collection_id');
    assert.equal(res.body.reason, 'project_has_no_site', res.text);
    assert.deepEqual(await rowCounts(t.account.accountId), counts);
  });

  it("another account's project, even one bound to a site, is 400 invalid_reference on cms_link.project_id and nothing is written", async () => {
    const theirs = await newProjectId(other.account.accountId);
    await saveBinding(harness().db, other.account.accountId, theirs, {
      override_mode: 'inherit',
      connection_id: null,
      site_id: other.siteId,
    });
    const counts = await rowCounts(t.account.accountId);
    for (const agent of [false, true])
      assertInvalidReference(await create({ cms_link: link(other.collectionId, theirs) }, agent), 'cms_link.project_id');
    assert.deepEqual(await rowCounts(t.account.accountId), counts);
  });

  it("a collection of the project's site links on create, PUT and PATCH, and the linked item can be scheduled", async () => {
    const at = future(6);
    const created = await create({ cms_link: link(), scheduled_publish_at: at }, true);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.cms_link, { ...link(), item_id: null });
    assert.equal(created.body.scheduled_publish_at, at);

    const item = await newItem();
    const viaPut = await put(item.id, { ...item, cms_link: link() });
    assert.equal(viaPut.status, 200, viaPut.text);
    assert.deepEqual(viaPut.body.cms_link, { ...link(), item_id: null });
    const second = await newItem();
    const viaPatch = await patch(second.id, { cms_link: link(), scheduled_publish_at: at });
    assert.equal(viaPatch.status, 200, viaPatch.text);
    assert.equal(viaPatch.body.scheduled_publish_at, at);
    const withItemId = await patch(second.id, { cms_link: { ...link(), item_id: 'cms-1' } });
    assert.equal(withItemId.status, 200, withItemId.text);
    assert.deepEqual(withItemId.body.cms_link, { ...link(), item_id: 'cms-1' });
  });

  it("the check reads the site's collections through the snapshot cache: a repeat makes no platform call, and a collection added since is still found", async () => {
    assert.equal((await create({ cms_link: link() })).status, 201);
    const mark = world.sim.requests().length;
    const again = await create({ cms_link: link() }, true);
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(platformCallsSince(world, mark), [], 'served from the snapshot');

    const added = world.sim.addCollection(t.siteId, { displayName: `Guides ${uuid().slice(0, 4)}`, singularName: 'Guide' });
    const fresh = await create({ cms_link: link(added.id) });
    assert.equal(fresh.status, 201, fresh.text);
    assert.deepEqual(
      platformCallsSince(world, mark),
      [`GET /v2/sites/${t.siteId}/collections`],
      'one refetch when the cached list lacks the collection',
    );
  });

  it('a link echoed back unchanged is not re-checked (an editor save never waits on the platform)', async () => {
    const legacyLink = { project_id: await newProjectId(t.account.accountId), collection_id: 'legacy', item_id: 'cms-1' };
    const [row] = await harness()
      .db('content_items')
      .insert({ account_id: t.account.accountId, title: 'Linked before the check existed', cms_link: JSON.stringify(legacyLink) })
      .returning('id');
    const item = (await world.app.call('GET', `/api/marketing/content/${row.id}`, { token: t.account.ownerToken })).body;
    const mark = world.sim.requests().length;
    const echo = await put(item.id, { ...item, title: 'Edited' });
    assert.equal(echo.status, 200, echo.text);
    assert.deepEqual(echo.body.cms_link, legacyLink);
    const itemIdOnly = await patch(item.id, { cms_link: { ...legacyLink, item_id: 'cms-2' } });
    assert.equal(itemIdOnly.status, 200, itemIdOnly.text);
    assert.deepEqual(platformCallsSince(world, mark), []);
  });

  it("a platform failure during the check answers the platform's coded error (502, 504), never a 500, and writes nothing", async () => {
    const fresh = await newTenant(world); // nothing cached for its site yet
    const counts = await rowCounts(fresh.account.accountId);
    const body = { cms_link: { project_id: fresh.projectId, collection_id: fresh.collectionId } };
    world.sim.injectFault({ kind: '5xx', status: 503, path: `/v2/sites/${fresh.siteId}/collections` });
    try {
      const res = await create(body, true, fresh);
      assert.deepEqual([res.status, res.body.code], [502, 'platform_upstream'], res.text);
    } finally {
      world.sim.clearFaults();
    }

    const fast = await startSiteWorld(
      { SITE_PLATFORM_TIMEOUT_MS: 300, SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: world.config.SITE_PLATFORM_TOKEN_ENCRYPTION_KEY },
      { sim: world.sim },
    );
    world.sim.injectFault({ kind: 'timeout', path: `/v2/sites/${fresh.siteId}/collections` });
    try {
      const res = await fast.app.call('POST', '/api/marketing/content', {
        token: fresh.account.ownerToken,
        body: { title: 'Slow', ...body },
      });
      assert.deepEqual([res.status, res.body.code], [504, 'platform_timeout'], res.text);
    } finally {
      world.sim.clearFaults();
      await fast.close();
    }
    assert.deepEqual(await rowCounts(fresh.account.accountId), counts);
  });
});
