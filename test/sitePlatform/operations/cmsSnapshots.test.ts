import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { getOperation } from '../../../src/sitePlatform/registry';
import { markSnapshotsStale, snapshotRead } from '../../../src/sitePlatform/operations/cmsSnapshots';
import { connectWithSiteToken, type SiteWorld } from '../connections/fixtures';
import { newAccount } from '../../helpers/accounts';
import { OPS, platformCallsSince, query, type Tenant, useTenantWorld } from './fixtures';

describe('site platform CMS snapshot cache: schema 10 minutes, items 60 seconds, stale on writes', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  const get = (token: string, params: Record<string, string>) => world.app.call('GET', `${OPS}${query(params)}`, { token });
  const age = (accountId: string, kind: string, seconds: number) =>
    harness()
      .db('site_platform_cms_snapshots')
      .where({ account_id: accountId, kind })
      .update({ fetched_at: harness().db.raw(`now() - make_interval(secs => ?)`, [seconds]) });

  it('the schema snapshot (collection list) is served from cache for 10 minutes, then refetched', async () => {
    const first = await get(t.account.agentKey, { action: 'cms_collection_list', site_id: t.siteId });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.snapshot.kind, 'schema');
    assert.equal(first.body.snapshot.cached, false);
    const mark = world.sim.requests().length;
    await age(t.account.accountId, 'schema', 9 * 60);
    const second = await get(t.account.agentKey, { action: 'cms_collection_list', site_id: t.siteId });
    assert.equal(second.body.snapshot.cached, true);
    assert.deepEqual(second.body.result, first.body.result);
    assert.deepEqual(platformCallsSince(world, mark), []);
    await age(t.account.accountId, 'schema', 10 * 60 + 1);
    const third = await get(t.account.agentKey, { action: 'cms_collection_list', site_id: t.siteId });
    assert.equal(third.body.snapshot.cached, false);
    assert.deepEqual(platformCallsSince(world, mark), [`GET /v2/sites/${t.siteId}/collections`]);
  });

  it("the items snapshot (one collection's items) is served from cache for 60 seconds, then refetched", async () => {
    const params = { action: 'cms_item_list', site_id: t.siteId, collection_id: t.collectionId };
    await get(t.account.agentKey, params);
    const mark = world.sim.requests().length;
    await age(t.account.accountId, 'items', 59);
    assert.equal((await get(t.account.agentKey, params)).body.snapshot.cached, true);
    assert.deepEqual(platformCallsSince(world, mark), []);
    await age(t.account.accountId, 'items', 61);
    assert.equal((await get(t.account.agentKey, params)).body.snapshot.cached, false);
    assert.equal(platformCallsSince(world, mark).length, 1);
  });

  it('each read variant (paging, staged or live) is its own snapshot', async () => {
    const base = { action: 'cms_item_list', site_id: t.siteId, collection_id: t.collectionId };
    const all = await get(t.account.agentKey, base);
    const one = await get(t.account.agentKey, { ...base, limit: '1' });
    assert.equal(one.body.snapshot.cached, false);
    assert.equal(one.body.result.items.length, 1);
    assert.ok(all.body.result.items.length > 1);
  });

  it('a successful CMS write marks the snapshots stale: the next read refetches and sees the write', async () => {
    const params = { action: 'cms_item_list', site_id: t.siteId, collection_id: t.collectionId };
    const before = await get(t.account.agentKey, params);
    const created = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: {
        action: 'cms_item_create',
        site_id: t.siteId,
        collection_id: t.collectionId,
        fieldData: { name: 'Fresh post', slug: 'fresh-post' },
      },
    });
    assert.equal(created.status, 200, created.text);
    const after = await get(t.account.agentKey, params);
    assert.equal(after.body.snapshot.cached, false);
    assert.equal(after.body.result.items.length, before.body.result.items.length + 1);
    const schema = await get(t.account.agentKey, { action: 'cms_collection_list', site_id: t.siteId });
    assert.equal(schema.body.snapshot.cached, false, "the site's schema snapshot went stale too");
  });

  it('a failed write leaves the snapshots alone', async () => {
    const params = { action: 'cms_item_list', site_id: t.siteId, collection_id: t.collectionId };
    await get(t.account.agentKey, params);
    const failed = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: {
        action: 'cms_item_update',
        site_id: t.siteId,
        collection_id: t.collectionId,
        item_id: 'item_missing',
        fieldData: { name: 'x' },
      },
    });
    assert.equal(failed.status, 404, failed.text);
    assert.equal((await get(t.account.agentKey, params)).body.snapshot.cached, true);
  });

  it('snapshots are per account: another account bound to the same site fetches its own', async () => {
    const other = await newAccount();
    await connectWithSiteToken(world, other, [t.siteId]);
    const mine = await get(t.account.agentKey, { action: 'cms_collection_list', site_id: t.siteId });
    assert.equal(mine.status, 200);
    const mark = world.sim.requests().length;
    const theirs = await get(other.agentKey, { action: 'cms_collection_list', site_id: t.siteId });
    assert.equal(theirs.status, 200, theirs.text);
    assert.equal(theirs.body.snapshot.cached, false);
    assert.equal(platformCallsSince(world, mark).length, 1);
  });

  it('a read in flight when a write marks the site stale answers but does not store its older result', async () => {
    const op = getOperation('cms_item_list')!;
    const params = { site_id: t.siteId, collection_id: t.collectionId, limit: 7 };
    const raced = await snapshotRead(harness().db, t.account.accountId, op, params, async () => {
      await markSnapshotsStale(harness().db, t.siteId, t.collectionId);
      return { items: ['old'] };
    });
    assert.deepEqual(raced.result, { items: ['old'] });
    const next = await snapshotRead(harness().db, t.account.accountId, op, params, async () => ({ items: ['new'] }));
    assert.equal(next.snapshot?.cached, false);
    assert.deepEqual(next.result, { items: ['new'] });
  });

  it('reads outside the cache (single items, pages) carry no snapshot', async () => {
    const res = await get(t.account.agentKey, {
      action: 'cms_item_get',
      site_id: t.siteId,
      collection_id: t.collectionId,
      item_id: t.itemIds[0],
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.snapshot, undefined);
  });
});
