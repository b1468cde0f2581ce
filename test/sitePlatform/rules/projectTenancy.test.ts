import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { ALL_SCOPES, depsOf, startSiteWorld, uuid, type SiteWorld } from '../connections/fixtures';
import { OPS, builderOps, newTenant, query, type Tenant } from '../operations/fixtures';
import { resolveCredentials } from '../../../src/sitePlatform/connections';

/**
 * Tenancy rule: a project id binds per (account, project); one account saving a binding, a content source or a
 * project connection for a project id never blocks, changes or reads another account's project of the same id.
 */
describe('tenancy rule: one account\'s project binding never blocks another account\'s project of the same id', () => {
  let world: SiteWorld;
  let a: Tenant;
  let b: Tenant;
  before(async () => {
    world = await startSiteWorld();
    a = await newTenant(world);
    b = await newTenant(world);
  });
  after(async () => { await world.close(); });

  const binding = (t: Tenant, projectId: string) => world.app.call('GET', `/api/site-platform/projects/${projectId}/binding`, { token: t.account.ownerToken });
  const bind = (t: Tenant, projectId: string, body: Record<string, unknown>) =>
    world.app.call('PUT', `/api/site-platform/projects/${projectId}/binding`, { token: t.account.ownerToken, body });
  const rowsOf = (t: Tenant) => harness().db('site_platform_project_bindings').where({ account_id: t.account.accountId }).orderBy('project_id');

  it('B saving a binding for a project id first does not lock A out of its project of that id', async () => {
    const projectId = uuid();
    assert.equal((await bind(b, projectId, { override_mode: 'disabled' })).status, 200);
    const put = await bind(a, projectId, { override_mode: 'inherit', site_id: a.siteId });
    assert.equal(put.status, 200, put.text);
    const read = await binding(a, projectId);
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.binding.override_mode, 'inherit');
    assert.equal(read.body.resolved.site_id, a.siteId);
    const bRead = await binding(b, projectId);
    assert.equal(bRead.body.binding.override_mode, 'disabled', 'B keeps its own binding');
    assert.equal(bRead.body.resolved, null);

    const ops = await world.app.call('GET', `${builderOps(projectId)}${query({ action: 'cms_collection_list' })}`, { token: a.account.ownerToken });
    assert.equal(ops.status, 200, ops.text);
    const agent = await world.app.call('GET', `${OPS}${query({ action: 'cms_collection_list', project_id: projectId })}`, { token: a.account.agentKey });
    assert.equal(agent.status, 200, agent.text);
    const capabilities = await world.app.call('GET', `/api/builder/site-platform/${projectId}/cms-capabilities`, { token: a.account.ownerToken });
    assert.equal(capabilities.status, 200, capabilities.text);
    assert.equal(capabilities.body.site_id, a.siteId);
  });

  it('B binding A\'s project id changes nothing of A\'s: binding, resolution and content source stay A\'s', async () => {
    const switched = await world.app.call('POST', OPS, { token: a.account.agentKey, body: { action: 'project_cms_provider_set', project_id: a.projectId, provider: 'site_platform', site_id: a.siteId, confirm: true } });
    assert.equal(switched.status, 200, switched.text);
    const before = { bindings: await rowsOf(a), sources: await harness().db('site_platform_content_sources').where({ account_id: a.account.accountId }) };

    assert.equal((await bind(b, a.projectId, { override_mode: 'disabled' })).status, 200);
    const bSwitch = await world.app.call('POST', OPS, { token: b.account.agentKey, body: { action: 'project_cms_provider_set', project_id: a.projectId, provider: 'native', confirm: true } });
    assert.equal(bSwitch.status, 200, bSwitch.text);
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [b.siteId] });
    const bConnect = await world.app.call('POST', '/api/site-platform/site-token', { token: b.account.ownerToken, body: { token, project_id: a.projectId } });
    assert.equal(bConnect.status, 201, bConnect.text);

    assert.deepEqual(await rowsOf(a), before.bindings);
    assert.deepEqual(await harness().db('site_platform_content_sources').where({ account_id: a.account.accountId }), before.sources);
    const read = await binding(a, a.projectId);
    assert.equal(read.body.binding.override_mode, 'inherit');
    assert.equal(read.body.resolved.site_id, a.siteId);
    const resolved = await resolveCredentials(depsOf(world), a.account.accountId, { projectId: a.projectId });
    assert.equal(resolved?.siteId, a.siteId);
    const capabilities = await world.app.call('GET', `/api/builder/site-platform/${a.projectId}/cms-capabilities`, { token: a.account.ownerToken });
    assert.equal(capabilities.body.provider, 'site_platform');
    const bCapabilities = await world.app.call('GET', `/api/builder/site-platform/${a.projectId}/cms-capabilities`, { token: b.account.ownerToken });
    assert.equal(bCapabilities.body.provider, 'native', 'B sees its own project, not A\'s');
    assert.equal(bCapabilities.body.site_id, b.siteId);
  });

  it('the service secret names the account of a project id several accounts bind; it never guesses one', async () => {
    const projectId = uuid();
    assert.equal((await bind(a, projectId, { override_mode: 'inherit', site_id: a.siteId })).status, 200);
    const secret = { 'x-agent-secret': harness().deps.config.AGENT_SECRET! };
    const path = `${builderOps(projectId)}${query({ action: 'cms_collection_list' })}`;
    const alone = await world.app.call('GET', path, { headers: secret });
    assert.equal(alone.status, 200, alone.text);
    assert.equal((await bind(b, projectId, { override_mode: 'inherit', site_id: b.siteId })).status, 200);
    const ambiguous = await world.app.call('GET', path, { headers: secret });
    assert.deepEqual([ambiguous.status, ambiguous.body.code], [409, 'project_account_ambiguous']);
    const named = await world.app.call('GET', `/api/builder/site-platform/${projectId}/cms-capabilities`, { headers: { ...secret, 'x-account-id': b.account.accountId } });
    assert.deepEqual([named.status, named.body.site_id], [200, b.siteId]);
    const notBinding = await world.app.call('GET', path, { headers: { ...secret, 'x-account-id': (await newTenant(world)).account.accountId } });
    assert.deepEqual([notBinding.status, notBinding.body.code], [404, 'project_not_found']);
  });
});
