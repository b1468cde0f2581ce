import assert from 'node:assert/strict';
import { startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { OPS, auditRows, platformCallsSince } from './fixtures';
import { sampleTenant, type SampleTenant } from './samples';

describe('webhook_update: the platform has no webhook update, so the operation re-registers (create the new, then delete the old)', () => {
  let world: SiteWorld;
  let t: SampleTenant;
  before(async () => {
    world = await startSiteWorld();
    t = await sampleTenant(world, false);
  });
  after(async () => {
    await world.close();
  });
  afterEach(() => world.sim.clearFaults());

  const post = (body: Record<string, unknown>) =>
    world.app.call('POST', OPS, { token: t.account.agentKey, body: { site_id: t.site.siteId, confirm: true, ...body } });
  const hooks = () => world.sim.siteData(t.site.siteId).webhooks;
  const create = async (url: string) => {
    const res = await post({ action: 'webhook_create', triggerType: 'form_submission', url, filter: { name: 'Contact' } });
    assert.equal(res.status, 200, res.text);
    return res.body.result as { id: string };
  };

  it('webhook update uses only endpoints the platform has: the new registration keeps the trigger (and filter unless replaced), the old one is gone', async () => {
    const old = await create('https://hooks.example.test/old');
    const mark = world.sim.requests().length;
    const res = await post({ action: 'webhook_update', webhook_id: old.id, url: 'https://hooks.example.test/new' });
    assert.equal(res.status, 200, res.text);
    const calls = platformCallsSince(world, mark);
    assert.deepEqual(calls, [
      `GET /v2/sites/${t.site.siteId}/webhooks`,
      `POST /v2/sites/${t.site.siteId}/webhooks`,
      `DELETE /v2/webhooks/${old.id}`,
    ]);
    assert.ok(!calls.some((c) => c.startsWith('PATCH')), 'no PATCH reaches the platform');
    const replaced = res.body.result;
    assert.notEqual(replaced.id, old.id);
    assert.deepEqual(
      [replaced.triggerType, replaced.url, replaced.filter],
      ['form_submission', 'https://hooks.example.test/new', { name: 'Contact' }],
    );
    assert.deepEqual(
      hooks()
        .filter((h) => h.id === old.id || h.id === replaced.id)
        .map((h) => h.id),
      [replaced.id],
    );
    assert.ok((await auditRows(t.account.accountId)).some((r) => r.action === 'platform.webhook_update'));
  });

  it('the simulator, like the platform, has no PATCH /webhooks/{id}', async () => {
    const old = await create('https://hooks.example.test/patch');
    const res = await fetch(`${world.sim.baseUrl}/v2/webhooks/${old.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(res.status, 405);
  });

  it('when the old registration cannot be deleted, 424 webhook_update_incomplete names both ids; the new registration stands and the old one can still be deleted', async () => {
    const old = await create('https://hooks.example.test/stuck');
    world.sim.injectFault({ kind: '5xx', status: 503, path: `/v2/webhooks/${old.id}` });
    const res = await post({ action: 'webhook_update', webhook_id: old.id, url: 'https://hooks.example.test/unstuck' });
    assert.equal(res.status, 424, res.text);
    assert.equal(res.body.code, 'webhook_update_incomplete');
    const replacement = hooks().find((h) => h.url === 'https://hooks.example.test/unstuck')!;
    assert.deepEqual([res.body.old_webhook_id, res.body.new_webhook_id], [old.id, replacement.id]);
    assert.ok(
      hooks().some((h) => h.id === old.id),
      'the old registration is still there',
    );
    const cleanup = await post({ action: 'webhook_delete', webhook_id: old.id });
    assert.equal(cleanup.status, 200, cleanup.text);
  });

  it('an update naming nothing to change, a webhook the site does not have, or a filter on a trigger that takes none: refused, nothing registered or deleted', async () => {
    const old = await create('https://hooks.example.test/keep');
    const before = hooks().map((h) => h.id);
    const nothing = await post({ action: 'webhook_update', webhook_id: old.id });
    assert.equal(nothing.status, 400, nothing.text);
    assert.equal(nothing.body.code, 'validation_failed');
    const unknown = await post({ action: 'webhook_update', webhook_id: 'aaaaaaaaaaaaaaaaaaaaaaaa', url: 'https://hooks.example.test/x' });
    assert.equal(unknown.status, 404, unknown.text);
    assert.deepEqual(
      hooks().map((h) => h.id),
      before,
    );
    const other = await post({ action: 'webhook_create', triggerType: 'site_publish', url: 'https://hooks.example.test/publish' });
    assert.equal(other.status, 200, other.text);
    const everyHook = hooks().map((h) => h.id);
    const filtered = await post({ action: 'webhook_update', webhook_id: other.body.result.id, filter: { name: 'Contact' } });
    assert.equal(filtered.status, 400, filtered.text);
    assert.equal(filtered.body.code, 'validation_failed');
    assert.deepEqual(
      hooks().map((h) => h.id),
      everyHook,
      'a filter on a site_publish webhook registers and deletes nothing',
    );
  });
});
