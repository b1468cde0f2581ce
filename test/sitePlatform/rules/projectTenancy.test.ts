import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { newProjectId } from '../../helpers/projects';
import { ALL_SCOPES, depsOf, type SiteWorld } from '../connections/fixtures';
import { OPS, builderOps, query, type Tenant, useTwoTenantWorld } from '../operations/fixtures';
import { resolveCredentials } from '../../../src/sitePlatform/connections';

/**
 * Tenancy rule: a project is a resource of one account. Another account's project id answers
 * 404 project_not_found on every project-taking site platform route and changes nothing; the project's own account
 * binds, switches and reads it as before. The service secret acts for the project's owner.
 */
describe("tenancy rule: a project id belongs to one account; another account's is 404 project_not_found", () => {
  let world: SiteWorld;
  let a: Tenant;
  let b: Tenant;
  useTwoTenantWorld((w, tenantA, tenantB) => {
    world = w;
    a = tenantA;
    b = tenantB;
  });

  const binding = (t: Tenant, projectId: string) =>
    world.app.call('GET', `/api/site-platform/projects/${projectId}/binding`, { token: t.account.ownerToken });
  const bind = (t: Tenant, projectId: string, body: Record<string, unknown>) =>
    world.app.call('PUT', `/api/site-platform/projects/${projectId}/binding`, { token: t.account.ownerToken, body });
  const notFound = (res: { status: number; body: any; text: string }) =>
    assert.deepEqual([res.status, res.body?.code], [404, 'project_not_found'], res.text);

  it('the owner binds, reads and runs operations on its project', async () => {
    const projectId = await newProjectId(a.account.accountId);
    const put = await bind(a, projectId, { override_mode: 'inherit', site_id: a.siteId });
    assert.equal(put.status, 200, put.text);
    const read = await binding(a, projectId);
    assert.equal(read.body.binding.override_mode, 'inherit');
    assert.equal(read.body.resolved.site_id, a.siteId);
    const ops = await world.app.call('GET', `${builderOps(projectId)}${query({ action: 'cms_collection_list' })}`, {
      token: a.account.ownerToken,
    });
    assert.equal(ops.status, 200, ops.text);
    const agent = await world.app.call('GET', `${OPS}${query({ action: 'cms_collection_list', project_id: projectId })}`, {
      token: a.account.agentKey,
    });
    assert.equal(agent.status, 200, agent.text);
    const capabilities = await world.app.call('GET', `/api/builder/site-platform/${projectId}/cms-capabilities`, {
      token: a.account.ownerToken,
    });
    assert.equal(capabilities.body.site_id, a.siteId);
  });

  it("B binding, switching, connecting or reading A's project is 404 project_not_found and changes nothing of A's", async () => {
    const switched = await world.app.call('POST', OPS, {
      token: a.account.agentKey,
      body: { action: 'project_cms_provider_set', project_id: a.projectId, provider: 'site_platform', site_id: a.siteId, confirm: true },
    });
    assert.equal(switched.status, 200, switched.text);
    const { db } = harness();
    const snapshot = async () =>
      JSON.stringify({
        bindings: await db('site_platform_project_bindings').where({ project_id: a.projectId }),
        sources: await db('site_platform_content_sources').where({ project_id: a.projectId }),
        project: await db('projects').where({ id: a.projectId }),
      });
    const before = await snapshot();

    notFound(await bind(b, a.projectId, { override_mode: 'disabled' }));
    notFound(await binding(b, a.projectId));
    notFound(
      await world.app.call('POST', OPS, {
        token: b.account.agentKey,
        body: { action: 'project_cms_provider_set', project_id: a.projectId, provider: 'native', confirm: true },
      }),
    );
    const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [b.siteId] });
    notFound(
      await world.app.call('POST', '/api/site-platform/site-token', {
        token: b.account.ownerToken,
        body: { token, project_id: a.projectId },
      }),
    );
    notFound(await world.app.call('GET', `/api/builder/site-platform/${a.projectId}/cms-capabilities`, { token: b.account.ownerToken }));
    notFound(
      await world.app.call('GET', `${builderOps(a.projectId)}${query({ action: 'cms_collection_list' })}`, { token: b.account.ownerToken }),
    );

    assert.equal(await snapshot(), before);
    const resolved = await resolveCredentials(depsOf(world), a.account.accountId, { projectId: a.projectId });
    assert.equal(resolved?.siteId, a.siteId);
    const capabilities = await world.app.call('GET', `/api/builder/site-platform/${a.projectId}/cms-capabilities`, {
      token: a.account.ownerToken,
    });
    assert.equal(capabilities.body.provider, 'site_platform');
  });

  it("the service secret acts for the project's owner; X-Account-Id naming another account is 404; ambiguity can no longer arise", async () => {
    const projectId = await newProjectId(a.account.accountId);
    assert.equal((await bind(a, projectId, { override_mode: 'inherit', site_id: a.siteId })).status, 200);
    const secret = { 'x-agent-secret': harness().deps.config.AGENT_SECRET! };
    const path = `${builderOps(projectId)}${query({ action: 'cms_collection_list' })}`;
    const alone = await world.app.call('GET', path, { headers: secret });
    assert.equal(alone.status, 200, alone.text);
    notFound(await bind(b, projectId, { override_mode: 'inherit', site_id: b.siteId }));
    const still = await world.app.call('GET', path, { headers: secret });
    assert.equal(still.status, 200, still.text);
    const named = await world.app.call('GET', `/api/builder/site-platform/${projectId}/cms-capabilities`, {
      headers: { ...secret, 'x-account-id': a.account.accountId },
    });
    assert.deepEqual([named.status, named.body.site_id], [200, a.siteId]);
    notFound(await world.app.call('GET', path, { headers: { ...secret, 'x-account-id': b.account.accountId } }));
    notFound(await world.app.call('GET', `${builderOps('not-a-uuid')}${query({ action: 'cms_collection_list' })}`, { headers: secret }));
  });
});
