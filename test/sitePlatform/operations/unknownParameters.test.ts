import assert from 'node:assert/strict';
import { OPERATIONS, getOperation, type OperationDef } from '../../../src/sitePlatform/registry';
import { startSiteWorld, type SiteWorld } from '../connections/fixtures';
import { OPS, auditRows, newTenant, query, type Tenant } from './fixtures';
import { SAMPLES, sampleTenant, type From, type SampleTenant } from './samples';

/** A read as the agent route takes it (GET, parameters in the query), a write as POST with confirm where gated. */
function send(world: SiteWorld, key: string, op: OperationDef, params: Record<string, unknown>) {
  if (op.kind === 'read') {
    const q = new URLSearchParams({ action: op.name });
    for (const [k, v] of Object.entries(params)) q.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
    return world.app.call('GET', `${OPS}?${q.toString()}`, { token: key });
  }
  return world.app.call('POST', OPS, { token: key, body: { action: op.name, ...params, ...(op.confirmGated ? { confirm: true } : {}) } });
}

describe('site platform operations: unknown parameters', () => {
  let world: SiteWorld;
  let t: Tenant;
  before(async () => {
    world = await startSiteWorld();
    t = await newTenant(world);
  });
  after(async () => {
    await world?.close();
  });

  it('an unknown parameter is 400 validation_failed naming it, and nothing is sent to the platform or audited', async () => {
    const mark = world.sim.requests().length;
    const audited = (await auditRows(t.account.accountId)).length;
    const res = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: {
        action: 'cms_item_update',
        site_id: t.siteId,
        collection_id: t.collectionId,
        item_id: t.itemIds[0],
        fieldData: { name: 'Kept out' },
        bogusParam: 1,
      },
    });
    assert.deepEqual([res.status, res.body.code], [400, 'validation_failed'], res.text);
    assert.deepEqual(res.body.errors, [{ path: 'bogusParam', message: 'unknown parameter of cms_item_update' }]);
    assert.match(res.body.message, /bogusParam/);
    assert.equal(world.sim.requests().length, mark, 'nothing reached the platform');
    assert.equal((await auditRows(t.account.accountId)).length, audited, 'no audit row');
  });

  it('an unknown key inside a nested parameter is refused with its full path (a bulk item update never goes out empty)', async () => {
    const mark = world.sim.requests().length;
    const res = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: {
        action: 'cms_item_update_bulk',
        site_id: t.siteId,
        collection_id: t.collectionId,
        items: [{ id: t.itemIds[1], fieldDta: { name: 'Typo' } }],
      },
    });
    assert.deepEqual([res.status, res.body.code], [400, 'validation_failed'], res.text);
    assert.deepEqual(res.body.errors, [{ path: 'items.0.fieldDta', message: 'unknown parameter of cms_item_update_bulk' }]);
    assert.equal(world.sim.requests().length, mark);
  });

  it('an unknown query parameter of a read is 400 validation_failed naming it, before the platform is called', async () => {
    const mark = world.sim.requests().length;
    const res = await world.app.call('GET', `${OPS}${query({ action: 'site_get', site_id: t.siteId, verbose: 'true' })}`, {
      token: t.account.agentKey,
    });
    assert.deepEqual([res.status, res.body.code], [400, 'validation_failed'], res.text);
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['verbose'],
    );
    assert.equal(world.sim.requests().length, mark);
  });

  it('site_id and project_id route every operation, also one whose platform call names no site (site_list, token_introspect)', async () => {
    for (const action of ['site_list', 'token_introspect']) {
      const res = await world.app.call('GET', `${OPS}${query({ action, site_id: t.siteId, project_id: t.projectId })}`, {
        token: t.account.agentKey,
      });
      assert.equal(res.status, 200, `${action}: ${res.text}`);
    }
  });

  it('project_cms_provider_set refuses an unknown parameter and switches nothing', async () => {
    const res = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: { action: 'project_cms_provider_set', project_id: t.projectId, provider: 'native', confirm: true, reason: 'tidy' },
    });
    assert.deepEqual([res.status, res.body.code], [400, 'validation_failed'], res.text);
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['reason'],
    );
    assert.equal(
      (await auditRows(t.account.accountId)).some((r: { action: string }) => r.action === 'platform.project_cms_provider_set'),
      false,
    );
  });

  describe('every registry operation', () => {
    let every: SampleTenant;
    before(async () => {
      every = await sampleTenant(world, true);
    });

    it('each of the 111 operations refuses an unknown parameter with 400 validation_failed naming it, before any platform call or audit row', async function () {
      this.timeout(120_000);
      // Nothing runs, so ids of earlier answers are stand-ins.
      const standIn = '0'.repeat(24);
      const from: From = () => ({ id: standIn, product: { id: standIn }, skus: [{ id: standIn }] });
      const failures: string[] = [];
      const mark = world.sim.requests().length;
      for (const op of OPERATIONS) {
        const sample = SAMPLES.find((x) => x.action === op.name);
        const params = sample ? sample.params(every.site, from) : { project_id: t.projectId, provider: 'native' };
        const key = op.name === 'project_cms_provider_set' ? t.account.agentKey : every.account.agentKey;
        const res = await send(world, key, op, { ...params, unexpected_param: 'x' });
        const paths = Array.isArray(res.body?.errors) ? res.body.errors.map((e: { path: string }) => e.path) : [];
        if (res.status !== 400 || res.body.code !== 'validation_failed' || !paths.includes('unexpected_param')) {
          failures.push(`${op.name}: ${res.status} ${res.body?.code} ${JSON.stringify(res.body?.errors ?? res.text)}`);
        }
      }
      assert.deepEqual(failures, []);
      assert.equal(world.sim.requests().length, mark, 'no operation reached the platform');
      assert.deepEqual(await auditRows(every.account.accountId), []);
      assert.equal(OPERATIONS.length, 111);
      assert.ok(getOperation('project_cms_provider_set'));
    });
  });
});
