import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { type SiteWorld } from '../connections/fixtures';
import { OPS, builderOps, newTenant, platformCallsSince, type Tenant, useTenantWorld } from './fixtures';

describe('site platform operation routes: idempotency slots and publish cooldown', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  const update = (itemId: string, name: string) => ({
    action: 'cms_item_update',
    site_id: t.siteId,
    collection_id: t.collectionId,
    item_id: itemId,
    fieldData: { name },
  });
  const patches = (world: SiteWorld, mark: number) => platformCallsSince(world, mark).filter((c) => c.startsWith('PATCH'));

  it('an agent-route POST claims a slot from the body hash: an identical retry replays without a platform call', async () => {
    const body = update(t.itemIds[0], 'Once');
    const mark = world.sim.requests().length;
    const first = await world.app.call('POST', OPS, { token: t.account.agentKey, body });
    const again = await world.app.call('POST', OPS, { token: t.account.agentKey, body });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(patches(world, mark).length, 1);
  });

  it('an Idempotency-Key names the slot on the agent route; the same key with another body is 409 idempotency_key_reused', async () => {
    const headers = { 'idempotency-key': `k-${Date.now()}` };
    const first = await world.app.call('POST', OPS, { token: t.account.agentKey, body: update(t.itemIds[1], 'Keyed'), headers });
    assert.equal(first.status, 200);
    const reused = await world.app.call('POST', OPS, { token: t.account.agentKey, body: update(t.itemIds[1], 'Other'), headers });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.code, 'idempotency_key_reused');
  });

  it('the dashboard route claims a slot only when Idempotency-Key is sent', async () => {
    const body = update(t.itemIds[2], 'Dash');
    const mark = world.sim.requests().length;
    await world.app.call('POST', builderOps(t.projectId), { token: t.account.ownerToken, body });
    await world.app.call('POST', builderOps(t.projectId), { token: t.account.ownerToken, body });
    assert.equal(patches(world, mark).length, 2);
    const headers = { 'idempotency-key': `d-${Date.now()}` };
    const mark2 = world.sim.requests().length;
    await world.app.call('POST', builderOps(t.projectId), { token: t.account.ownerToken, body, headers });
    const replay = await world.app.call('POST', builderOps(t.projectId), { token: t.account.ownerToken, body, headers });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(patches(world, mark2).length, 1);
  });

  it('a 5xx outcome releases the slot, so the identical retry runs', async () => {
    const body = update(t.itemIds[0], 'After outage');
    world.sim.injectFault({ kind: '5xx', status: 503, path: '/items/', times: 1 });
    const failed = await world.app.call('POST', OPS, { token: t.account.agentKey, body });
    assert.equal(failed.status, 502);
    const retry = await world.app.call('POST', OPS, { token: t.account.agentKey, body });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.equal(world.sim.item(t.collectionId, t.itemIds[0])!.fieldData.name, 'After outage');
  });

  it('a 409 write_locked releases the slot; other 4xx outcomes stay cached', async () => {
    const { db } = harness();
    const body = update(t.itemIds[1], 'Locked');
    await db('site_platform_write_locks').insert({
      account_id: t.account.accountId,
      target: `item_id:${t.itemIds[1]}`,
      holder: crypto.randomUUID(),
      expires_at: new Date(Date.now() + 60_000),
    });
    const locked = await world.app.call('POST', OPS, { token: t.account.agentKey, body });
    assert.equal(locked.status, 409);
    assert.equal(locked.body.code, 'write_locked');
    await db('site_platform_write_locks').where({ account_id: t.account.accountId }).delete();
    const retry = await world.app.call('POST', OPS, { token: t.account.agentKey, body });
    assert.equal(retry.status, 200, retry.text);

    const gone = { ...update('item_missing', 'x') };
    const notFound = await world.app.call('POST', OPS, { token: t.account.agentKey, body: gone });
    assert.equal(notFound.status, 404);
    const cached = await world.app.call('POST', OPS, { token: t.account.agentKey, body: gone });
    assert.equal(cached.status, 404);
    assert.equal(cached.headers.get('idempotent-replayed'), 'true');
  });

  it('site_publish never claims a slot, and a second publish within a minute is 429 publish_cooldown with retry_after_seconds', async () => {
    const body = { action: 'site_publish', site_id: t.siteId, confirm: true, publishToWebflowSubdomain: true };
    const first = await world.app.call('POST', OPS, { token: t.account.agentKey, body });
    assert.equal(first.status, 200, first.text);
    const second = await world.app.call('POST', OPS, { token: t.account.agentKey, body });
    assert.equal(second.status, 429);
    assert.equal(second.body.code, 'publish_cooldown');
    assert.ok(second.body.retry_after_seconds >= 1 && second.body.retry_after_seconds <= 60);
    assert.equal(second.headers.get('idempotent-replayed'), null);
    const row = await harness().db('site_platform_sites').where({ account_id: t.account.accountId, site_id: t.siteId }).first();
    assert.ok(row.last_publish_requested_at);
  });

  it('a publish the platform refuses does not start the cooldown', async () => {
    const fresh = await newTenant(world);
    world.sim.injectFault({ kind: '5xx', status: 500, path: '/publish', times: 1 });
    const body = { action: 'site_publish', site_id: fresh.siteId, confirm: true, publishToWebflowSubdomain: true };
    const failed = await world.app.call('POST', OPS, { token: fresh.account.agentKey, body });
    assert.equal(failed.status, 502);
    const retry = await world.app.call('POST', OPS, { token: fresh.account.agentKey, body });
    assert.equal(retry.status, 200, retry.text);
  });
});
