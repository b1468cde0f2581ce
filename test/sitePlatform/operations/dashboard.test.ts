import assert from 'node:assert/strict';
import { ApiError } from '../../../src/http/errors';
import { slotFor, withSlot } from '../../../src/sitePlatform/operations/slots';
import { saveBinding } from '../../../src/sitePlatform/connections/store';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { uuid, type SiteWorld } from '../connections/fixtures';
import { OPS, auditRows, builderOps, newTenant, query, type Tenant, useTenantWorld } from './fixtures';

describe('site platform operation routes: dashboard callers, actors and content source', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  const secret = () => harness().deps.config.AGENT_SECRET!;
  const rename = (itemId: string, name: string) => ({
    action: 'cms_item_update',
    collection_id: t.collectionId,
    item_id: itemId,
    fieldData: { name },
  });
  const lastActor = async () => (await auditRows(t.account.accountId)).at(-1)?.actor;

  it("a session reads through the project's bound site without naming site_id", async () => {
    const res = await world.app.call('GET', `${builderOps(t.projectId)}${query({ action: 'cms_collection_list' })}`, {
      token: t.account.ownerToken,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      res.body.result.collections.map((c: any) => c.id),
      [t.collectionId],
    );
  });

  it('a session write is audited as user:<id>', async () => {
    const res = await world.app.call('POST', builderOps(t.projectId), {
      token: t.account.ownerToken,
      body: rename(t.itemIds[0], 'By user'),
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(await lastActor(), `user:${t.account.ownerId}`);
  });

  it("another account's session on the project is 404 project_not_found, its site is 404, and nothing reaches the platform", async () => {
    const intruder = await newAccount();
    const mark = world.sim.requests().length;
    const res = await world.app.call('POST', builderOps(t.projectId), { token: intruder.ownerToken, body: rename(t.itemIds[0], 'Hijack') });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'project_not_found');
    const viaAgent = await world.app.call('POST', OPS, {
      token: intruder.agentKey,
      body: { ...rename(t.itemIds[0], 'Hijack'), site_id: t.siteId },
    });
    assert.equal(viaAgent.status, 404);
    assert.equal(world.sim.requests().length, mark);
  });

  it("the service secret acts for the project's account and may name the actor as workflow:<workflowId>:<runId>", async () => {
    const headers = { 'x-agent-secret': secret(), 'x-agent-actor-label': 'workflow:wf-1:run-9' };
    const res = await world.app.call('POST', builderOps(t.projectId), { headers, body: rename(t.itemIds[1], 'By workflow') });
    assert.equal(res.status, 200, res.text);
    assert.equal(await lastActor(), 'workflow:wf-1:run-9');
  });

  it('an actor label of another shape, or from a non-service caller, is ignored', async () => {
    await world.app.call('POST', builderOps(t.projectId), {
      headers: { 'x-agent-secret': secret(), 'x-agent-actor-label': 'user:boss' },
      body: rename(t.itemIds[1], 'Odd label'),
    });
    assert.equal(await lastActor(), 'agent:service');
    await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      headers: { 'x-agent-actor-label': 'workflow:wf:run' },
      body: { ...rename(t.itemIds[1], 'Agent label'), site_id: t.siteId },
    });
    assert.equal(await lastActor(), 'agent:default');
  });

  it('a wrong service secret is 401, and the secret on an unbound project is 404', async () => {
    const bad = await world.app.call('GET', `${builderOps(t.projectId)}${query({ action: 'site_list' })}`, {
      headers: { 'x-agent-secret': 'nope' },
    });
    assert.equal(bad.status, 401);
    const unbound = await world.app.call('GET', `${builderOps(uuid())}${query({ action: 'site_list' })}`, {
      headers: { 'x-agent-secret': secret() },
    });
    assert.equal(unbound.status, 404);
  });

  it('project_cms_provider_set is confirm-gated, switches the content source and shows in the CMS capabilities read', async () => {
    const caps = () => world.app.call('GET', `/api/builder/site-platform/${t.projectId}/cms-capabilities`, { token: t.account.ownerToken });
    const initial = await caps();
    assert.equal(initial.status, 200, initial.text);
    assert.deepEqual(
      [initial.body.provider, initial.body.external_platform, initial.body.project_type, initial.body.can_publish_items_to_site],
      ['native', 'site_platform', 'external_site', false],
    );

    const unconfirmed = await world.app.call('POST', builderOps(t.projectId), {
      token: t.account.ownerToken,
      body: { action: 'project_cms_provider_set', provider: 'site_platform', site_id: t.siteId },
    });
    assert.equal(unconfirmed.body.code, 'confirm_required');
    const noSite = await world.app.call('POST', builderOps(t.projectId), {
      token: t.account.ownerToken,
      body: { action: 'project_cms_provider_set', provider: 'site_platform', confirm: true },
    });
    assert.equal(noSite.body.code, 'validation_failed');

    const set = await world.app.call('POST', builderOps(t.projectId), {
      token: t.account.ownerToken,
      body: { action: 'project_cms_provider_set', provider: 'site_platform', site_id: t.siteId, confirm: true },
    });
    assert.equal(set.status, 200, set.text);
    assert.equal((await caps()).body.provider, 'site_platform');
    assert.equal((await caps()).body.can_publish_items_to_site, true);
    assert.equal((await auditRows(t.account.accountId)).at(-1)?.action, 'platform.project_cms_provider_set');
  });

  it("project_cms_provider_set on another account's project is 404 project_not_found and touches nothing; it refuses another account's site", async () => {
    const other = await newTenant(world);
    const switched = await world.app.call('POST', OPS, {
      token: other.account.agentKey,
      body: {
        action: 'project_cms_provider_set',
        project_id: other.projectId,
        provider: 'site_platform',
        site_id: other.siteId,
        confirm: true,
      },
    });
    assert.equal(switched.status, 200, switched.text);
    const sameId = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: { action: 'project_cms_provider_set', project_id: other.projectId, provider: 'native', confirm: true },
    });
    assert.deepEqual([sameId.status, sameId.body.code], [404, 'project_not_found']);
    const theirs = await harness()
      .db('site_platform_content_sources')
      .where({ account_id: other.account.accountId, project_id: other.projectId })
      .first();
    const theirProject = await harness().db('projects').where({ id: other.projectId }).first();
    assert.deepEqual([theirProject.content_source, theirs.site_id], ['site_platform', other.siteId]);
    const foreignSite = await world.app.call('POST', OPS, {
      token: t.account.agentKey,
      body: {
        action: 'project_cms_provider_set',
        project_id: t.projectId,
        provider: 'site_platform',
        site_id: other.siteId,
        confirm: true,
      },
    });
    assert.equal(foreignSite.status, 404);
    const foreignCaps = await world.app.call('GET', `/api/builder/site-platform/${other.projectId}/cms-capabilities`, {
      token: t.account.ownerToken,
    });
    assert.deepEqual([foreignCaps.status, foreignCaps.body.code], [404, 'project_not_found']);
  });

  it('cms-capabilities derives external_platform and project_type from the hosting: a service_hosted project is a native_site whatever its content source', async () => {
    const projectId = await newProjectId(t.account.accountId, { kind: 'service_hosted' });
    await saveBinding(harness().db, t.account.accountId, projectId, { override_mode: 'inherit', connection_id: null, site_id: t.siteId });
    const caps = async (id: string) => {
      const res = await world.app.call('GET', `/api/builder/site-platform/${id}/cms-capabilities`, { token: t.account.ownerToken });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const shape = (b: any) => [
      b.provider,
      b.external_platform,
      b.project_type,
      b.site_id,
      b.site_platform_connected,
      b.can_publish_items_to_site,
    ];
    assert.deepEqual(shape(await caps(projectId)), ['native', null, 'native_site', t.siteId, true, false]);
    const set = await world.app.call('POST', builderOps(projectId), {
      token: t.account.ownerToken,
      body: { action: 'project_cms_provider_set', provider: 'site_platform', site_id: t.siteId, confirm: true },
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(shape(await caps(projectId)), ['site_platform', null, 'native_site', t.siteId, true, true]);

    // A platform_hosted project is an external_site on the site platform, also before any connection resolves for it.
    const unconnected = await newProjectId(t.account.accountId, { kind: 'platform_hosted' });
    await saveBinding(harness().db, t.account.accountId, unconnected, { override_mode: 'disabled', connection_id: null, site_id: null });
    assert.deepEqual(shape(await caps(unconnected)), ['native', 'site_platform', 'external_site', null, false, false]);
    assert.deepEqual(shape(await caps(t.projectId)).slice(1, 3), ['site_platform', 'external_site']);
  });

  it('a 429 outcome releases the slot instead of caching it', async () => {
    const { db, deps } = harness();
    const slot = slotFor(t.account.accountId, 'POST /test/slots', { n: Date.now() }, undefined);
    await assert.rejects(
      withSlot(db, deps.secretHashKey, slot, async () => {
        throw new ApiError(429, 'rate_limited', 'slow down', { retryAfterSeconds: 5 });
      }),
      { code: 'rate_limited' },
    );
    const rerun = await withSlot(db, deps.secretHashKey, slot, async () => ({ status: 200, body: { ran: true } }));
    assert.deepEqual(rerun.body, { ran: true });
    assert.equal(rerun.headers?.['Idempotent-Replayed'], undefined);
  });
});
