import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { apiRoutes } from '../../src/app/routes';
import type { RouteDef } from '../../src/http/route';
import { insertProject } from '../../src/projects/store';
import { harness } from '../helpers/harness';
import { newAgentKey } from '../helpers/accounts';
import { ALL_SCOPES, type SiteWorld } from '../sitePlatform/connections/fixtures';
import { OPS, builderOps, query, type Tenant, useTwoTenantWorld } from '../sitePlatform/operations/fixtures';

type Answer = { status: number; body: any; text: string };

/**
 * Tenancy with two accounts: a project id belongs to exactly one account. Every route that takes a project
 * answers B for A's project exactly as for an unknown id, 404 project_not_found, and changes nothing of A's.
 */
describe('Projects tenancy: two accounts, a project id is never shared', () => {
  let world: SiteWorld;
  let a: Tenant;
  let b: Tenant;
  useTwoTenantWorld((w, tenantA, tenantB) => {
    world = w;
    a = tenantA;
    b = tenantB;
  });

  const asB = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    world.app.call(method, path, { token: b.account.ownerToken, body, headers });
  const snapshotOfA = async () => {
    const { db } = harness();
    return JSON.stringify({
      project: await db('projects').where({ id: a.projectId }),
      bindings: await db('site_platform_project_bindings').where({ project_id: a.projectId }),
      sources: await db('site_platform_content_sources').where({ project_id: a.projectId }),
      brandGuides: await db('brand_guides').where({ project_id: a.projectId }),
    });
  };

  /** B's answer for A's project equals its answer for an unknown id: 404 project_not_found; A is unchanged. */
  async function sameAsUnknown(attempt: (projectId: string) => Promise<Answer>): Promise<void> {
    const before = await snapshotOfA();
    const unknown = randomUUID();
    const foreign = await attempt(a.projectId);
    const missing = await attempt(unknown);
    assert.deepEqual([foreign.status, foreign.body?.code], [404, 'project_not_found'], foreign.text);
    const normal = (res: Answer, id: string) =>
      JSON.parse(JSON.stringify(res.body).replaceAll(id, '<id>'), (k, v) => (k === 'request_id' ? undefined : v));
    assert.deepEqual(normal(foreign, a.projectId), normal(missing, unknown));
    assert.equal(await snapshotOfA(), before, "A's project and what hangs off it are unchanged");
  }

  it('the same project id can never be a project of two accounts', async () => {
    await assert.rejects(
      insertProject(harness().db, b.account.accountId, { name: 'Taken', kind: 'service_hosted', id: a.projectId } as never),
      /duplicate key/,
    );
    const withId = await asB('POST', '/api/projects', { id: a.projectId, name: 'Mine now', kind: 'service_hosted' });
    assert.equal(withId.status, 400, 'a client never chooses a project id');
  });

  it("the projects routes (session and agent twin) answer B 404 project_not_found for A's project", async () => {
    const agentB = await newAgentKey(b.account.accountId, ['projects:read', 'projects:write']);
    for (const [prefix, token] of [
      ['/api', b.account.ownerToken],
      ['/api/agent', agentB],
    ] as const) {
      const call = (method: string, body?: unknown) => (id: string) => world.app.call(method, `${prefix}/projects/${id}`, { token, body });
      await sameAsUnknown(call('GET'));
      await sameAsUnknown(call('PATCH', { name: 'Taken over' }));
      await sameAsUnknown(call('DELETE'));
      const list = await world.app.call('GET', `${prefix}/projects`, { token });
      assert.deepEqual(
        list.body.data.map((p: { id: string }) => p.id),
        [b.projectId],
      );
    }
  });

  /** Every site platform route that takes a project, with a request that is valid but for the project. */
  const SITE_PLATFORM_ATTEMPTS: Record<string, (projectId: string) => Promise<Answer>> = {
    'put /api/site-platform/projects/{projectId}/binding': (id) =>
      asB('PUT', `/api/site-platform/projects/${id}/binding`, { override_mode: 'disabled' }),
    'get /api/site-platform/projects/{projectId}/binding': (id) => asB('GET', `/api/site-platform/projects/${id}/binding`),
    'get /api/builder/site-platform/{projectId}/ops': (id) => asB('GET', `${builderOps(id)}${query({ action: 'cms_collection_list' })}`),
    'post /api/builder/site-platform/{projectId}/ops': (id) =>
      asB('POST', builderOps(id), {
        action: 'cms_item_update',
        collection_id: a.collectionId,
        item_id: a.itemIds[0],
        fieldData: { name: 'Taken over' },
      }),
    'get /api/builder/site-platform/{projectId}/cms-capabilities': (id) => asB('GET', `/api/builder/site-platform/${id}/cms-capabilities`),
    'get /api/builder/site-platform/{projectId}/forms/routing': (id) => asB('GET', `/api/builder/site-platform/${id}/forms/routing`),
    'post /api/builder/site-platform/{projectId}/forms/backfill': (id) =>
      asB('POST', `/api/builder/site-platform/${id}/forms/backfill`, { limit: 10 }),
    'post /api/builder/site-platform/{projectId}/forms/routing': (id) =>
      asB('POST', `/api/builder/site-platform/${id}/forms/routing`, { mode: 'site_wide' }),
  };

  it("every site platform route with a project in its path answers B 404 project_not_found for A's project", async () => {
    const all = (): RouteDef[] => apiRoutes(all);
    const projectRoutes = all()
      .map((r) => `${r.spec.method} ${r.spec.path}`)
      .filter((k) => /\/(site-platform|builder)\/.*\{projectId\}/.test(k));
    assert.deepEqual(projectRoutes.sort(), Object.keys(SITE_PLATFORM_ATTEMPTS).sort(), 'a new project route needs its attempt here');
    for (const attempt of Object.values(SITE_PLATFORM_ATTEMPTS)) await sameAsUnknown(attempt);
  });

  it("the service secret with X-Account-Id of B on A's project is 404 project_not_found", async () => {
    const secret = { 'x-agent-secret': harness().deps.config.AGENT_SECRET!, 'x-account-id': b.account.accountId };
    await sameAsUnknown((id) => world.app.call('GET', `/api/builder/site-platform/${id}/cms-capabilities`, { headers: secret }));
    await sameAsUnknown((id) => world.app.call('GET', `${builderOps(id)}${query({ action: 'cms_collection_list' })}`, { headers: secret }));
  });

  it("project_id in a body or query (agent operations, site token, OAuth project connect) answers B 404 project_not_found for A's project", async () => {
    await sameAsUnknown((id) =>
      world.app.call('GET', `${OPS}${query({ action: 'cms_collection_list', project_id: id })}`, { token: b.account.agentKey }),
    );
    await sameAsUnknown((id) =>
      world.app.call('POST', OPS, {
        token: b.account.agentKey,
        body: { action: 'project_cms_provider_set', project_id: id, provider: 'native', confirm: true },
      }),
    );
    await sameAsUnknown((id) =>
      asB('POST', '/api/site-platform/site-token', {
        token: world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [b.siteId] }),
        project_id: id,
      }),
    );
    await sameAsUnknown((id) => asB('POST', '/api/site-platform/connect', { intent: 'site_project_connect', project_id: id }));
  });

  it("brand guides and the image profile (session and agent twin) answer B 404 project_not_found for A's project", async () => {
    await harness().db('brand_guides').insert({ account_id: a.account.accountId, project_id: a.projectId, voice: "A's voice" });
    for (const [prefix, token] of [
      ['/api', b.account.ownerToken],
      ['/api/agent', b.account.agentKey],
    ] as const) {
      await sameAsUnknown((id) => world.app.call('GET', `${prefix}/marketing/projects/${id}/brand`, { token }));
      await sameAsUnknown((id) =>
        world.app.call('PUT', `${prefix}/marketing/projects/${id}/brand`, { token, body: { voice: 'Taken over' } }),
      );
      await sameAsUnknown((id) => world.app.call('GET', `${prefix}/marketing/brand/image-profile${query({ project_id: id })}`, { token }));
    }
  });

  it("site links (GET /api/agent/marketing/content/site-links) answer B 404 project_not_found for A's project", async () => {
    await sameAsUnknown((id) =>
      world.app.call('GET', `/api/agent/marketing/content/site-links${query({ project_id: id })}`, { token: b.account.agentKey }),
    );
  });
});
