import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bustCredentials } from '../../src/sitePlatform/connections';
import { newState, signState, stateKey, type OAuthState } from '../../src/sitePlatform/connections/state';
import { harness } from '../helpers/harness';
import { ALL_SCOPES, addClient, registerClient, startSiteWorld, uuid, type SiteWorld } from './connections/fixtures';
import { OPS, builderOps, newTenant, platformCallsSince, query, type Tenant } from './operations/fixtures';

/**
 * Every site platform route, called by account B with account A's ids (connection, project, site, OAuth client):
 * B gets exactly the answer a missing id gets, A's rows do not change, and the platform sees no call.
 *
 * A project is a resource of one account: A's project id is, for B, an unknown project. B gets exactly the
 * answer an unknown uuid gets, 404 project_not_found (`sameAsUnknownProject`), the platform sees no call, and A's
 * binding, content source and resolution never change. A malformed project id is 404 project_not_found too.
 */
const A_TABLES = [
  'site_platform_oauth_clients',
  'site_platform_connections',
  'site_platform_sites',
  'site_platform_project_bindings',
  'site_platform_audit',
  'site_platform_content_sources',
  'site_platform_write_locks',
  'idempotency_keys',
];
const MISSING_PROJECT_PATH = '/api/site-platform/projects/not-a-uuid/binding';

describe("site platform tenancy: account B presenting account A's ids", () => {
  let world: SiteWorld;
  let a: Tenant;
  let b: Tenant;
  let aConnectionId: string;
  let aClientRowId: string;
  let aClientId: string;
  let bClientRowId: string;

  before(async () => {
    world = await startSiteWorld();
    a = await newTenant(world);
    b = await newTenant(world);
    aConnectionId = (await harness().db('site_platform_connections').where({ account_id: a.account.accountId }).first()).id;
    const aClient = addClient(world, [a.siteId]);
    aClientId = aClient.clientId;
    aClientRowId = await registerClient(world, a.account, aClient);
    bClientRowId = await registerClient(world, b.account, addClient(world, [b.siteId]));
    // A has written through the runner once, so A's audit, slot and content-source rows exist to be left alone.
    const write = await world.app.call('POST', OPS, {
      token: a.account.agentKey,
      body: { action: 'project_cms_provider_set', project_id: a.projectId, provider: 'site_platform', site_id: a.siteId, confirm: true },
    });
    assert.equal(write.status, 200, write.text);
  });
  after(async () => {
    await world.close();
  });

  /** Everything A owns: its rows in every site platform table, and its live items on the platform. */
  async function snapshotOfA(): Promise<string> {
    const { db } = harness();
    const tables: Record<string, string[]> = {};
    for (const table of A_TABLES) {
      tables[table] = (await db(table).where({ account_id: a.account.accountId })).map((r) => JSON.stringify(r)).sort();
    }
    const items = a.itemIds.map((id) => world.sim.item(a.collectionId, id));
    return JSON.stringify({ tables, items, site: world.sim.site(a.siteId) });
  }

  const comparable = (res: { status: number; body: any }) => ({ status: res.status, body: { ...res.body, request_id: undefined } });

  /**
   * Runs B's attempt with A's id and the same attempt with a missing id: same status and body, A unchanged.
   * `platform: 'none'` (default) also requires that neither reached the platform; `'same'` that both made the same
   * calls (a pasted token must be validated before its site list can be checked).
   */
  async function sameAsMissing(
    foreign: () => Promise<{ status: number; body: any }>,
    missing: () => Promise<{ status: number; body: any }>,
    platform: 'none' | 'same' = 'none',
  ) {
    const before = await snapshotOfA();
    const m0 = world.sim.requests().length;
    const f = await foreign();
    const m1 = world.sim.requests().length;
    const m = await missing();
    const foreignCalls = platformCallsSince(world, m0).slice(0, m1 - m0);
    const missingCalls = platformCallsSince(world, m1);
    assert.ok(f.status >= 400, `A's id must be refused, got ${f.status} ${JSON.stringify(f.body)}`);
    assert.deepEqual(comparable(f), comparable(m));
    if (platform === 'none') assert.deepEqual([foreignCalls, missingCalls], [[], []], 'the platform saw no call');
    else
      assert.deepEqual(
        foreignCalls.map((c) => c.replace(/\?.*$/, '')),
        missingCalls.map((c) => c.replace(/\?.*$/, '')),
      );
    assert.equal(await snapshotOfA(), before, "A's rows and platform state are unchanged");
    return f;
  }

  /** Like sameAsMissing for a project id: A's project answers B exactly as an unknown uuid does, 404 project_not_found. */
  async function sameAsUnknownProject(attempt: (projectId: string) => Promise<{ status: number; body: any }>) {
    const unknown = uuid();
    const before = await snapshotOfA();
    const m0 = world.sim.requests().length;
    const f = await attempt(a.projectId);
    const m = await attempt(unknown);
    const normal = (res: { status: number; body: any }, projectId: string) =>
      JSON.parse(JSON.stringify({ status: res.status, body: res.body }).replaceAll(projectId, '<project>'), (k, v) =>
        k === 'request_id' ? undefined : v,
      );
    assert.deepEqual([f.status, f.body?.code], [404, 'project_not_found'], JSON.stringify(f.body));
    assert.deepEqual(normal(f, a.projectId), normal(m, unknown));
    assert.deepEqual(platformCallsSince(world, m0), [], 'the platform saw no call');
    assert.equal(await snapshotOfA(), before, "A's rows and platform state are unchanged");
    await forgetProjectsOfB([a.projectId, unknown]);
    return f;
  }

  /** Drops what B made for these project ids (bindings, content sources, override connections), so later tests start clean. */
  async function forgetProjectsOfB(projectIds: string[]) {
    const { db } = harness();
    const accountId = b.account.accountId;
    const overrides = await db('site_platform_connections')
      .where({ account_id: accountId, purpose: 'project_override' })
      .whereIn('project_id', projectIds)
      .whereNull('disconnected_at');
    for (const row of overrides) {
      const res = await asB('POST', `/api/site-platform/connections/${row.id}/disconnect`);
      assert.equal(res.status, 200, res.text);
    }
    await db('site_platform_project_bindings').where({ account_id: accountId }).whereIn('project_id', projectIds).delete();
    await db('site_platform_content_sources').where({ account_id: accountId }).whereIn('project_id', projectIds).delete();
    bustCredentials(accountId);
  }

  const asB = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    world.app.call(method, path, { token: b.account.ownerToken, body, headers });
  const agentB = (method: string, path: string, body?: unknown) => world.app.call(method, path, { token: b.account.agentKey, body });

  describe('connections, sites and bindings', () => {
    it("GET /api/site-platform/connections/{id}: A's connection is 404 site_platform_connection_not_found, like a missing id", async () => {
      const res = await sameAsMissing(
        () => asB('GET', `/api/site-platform/connections/${aConnectionId}`),
        () => asB('GET', `/api/site-platform/connections/${uuid()}`),
      );
      assert.deepEqual([res.status, res.body.code], [404, 'site_platform_connection_not_found']);
    });

    it("POST /api/site-platform/connections/{id}/disconnect: A's connection is 404 like a missing id and stays connected", async () => {
      const res = await sameAsMissing(
        () => asB('POST', `/api/site-platform/connections/${aConnectionId}/disconnect`),
        () => asB('POST', `/api/site-platform/connections/${uuid()}/disconnect`),
      );
      assert.deepEqual([res.status, res.body.code], [404, 'site_platform_connection_not_found']);
      const row = await harness().db('site_platform_connections').where({ id: aConnectionId }).first();
      assert.equal(row.disconnected_at, null);
    });

    it("PUT /api/site-platform/projects/{projectId}/binding: A's project is 404 project_not_found like an unknown one; a malformed id is 404", async () => {
      await sameAsUnknownProject((projectId) =>
        asB('PUT', `/api/site-platform/projects/${projectId}/binding`, { override_mode: 'disabled' }),
      );
      const malformed = await asB('PUT', MISSING_PROJECT_PATH, { override_mode: 'disabled' });
      assert.deepEqual([malformed.status, malformed.body.code], [404, 'project_not_found']);
    });

    it("PUT binding on B's own project: A's connection_id and A's site_id are 400 invalid_reference, like unknown ones", async () => {
      const path = `/api/site-platform/projects/${b.projectId}/binding`;
      const byConnection = await sameAsMissing(
        () => asB('PUT', path, { override_mode: 'override', connection_id: aConnectionId }),
        () => asB('PUT', path, { override_mode: 'override', connection_id: uuid() }),
      );
      assert.deepEqual([byConnection.status, byConnection.body.code], [400, 'invalid_reference']);
      const bySite = await sameAsMissing(
        () => asB('PUT', path, { override_mode: 'inherit', site_id: a.siteId }),
        () => asB('PUT', path, { override_mode: 'inherit', site_id: 'site_unknown_anywhere' }),
      );
      assert.deepEqual([bySite.status, bySite.body.code], [400, 'invalid_reference']);
    });

    it("GET /api/site-platform/projects/{projectId}/binding: A's project is 404 project_not_found like an unknown one; A's site_id resolves to nothing, like an unknown site", async () => {
      await sameAsUnknownProject((projectId) => asB('GET', `/api/site-platform/projects/${projectId}/binding`));
      const foreignSite = await asB('GET', `/api/site-platform/projects/${b.projectId}/binding${query({ site_id: a.siteId })}`);
      const unknownSite = await asB(
        'GET',
        `/api/site-platform/projects/${b.projectId}/binding${query({ site_id: 'site_unknown_anywhere' })}`,
      );
      assert.equal(foreignSite.status, 200, foreignSite.text);
      assert.equal(foreignSite.body.resolved, null);
      assert.deepEqual(foreignSite.body, unknownSite.body);
    });

    it("the lists (connections, sites, OAuth clients, connect options) show B none of A's rows", async () => {
      const connections = await asB('GET', '/api/site-platform/connections');
      assert.ok(connections.body.data.length > 0 && connections.body.data.every((c: any) => c.id !== aConnectionId));
      const sites = await asB('GET', '/api/site-platform/sites');
      assert.deepEqual(
        sites.body.data.map((s: any) => s.site_id),
        [b.siteId],
      );
      const clients = await asB('GET', '/api/site-platform/oauth-clients');
      assert.deepEqual(
        clients.body.data.map((c: any) => c.id),
        [bClientRowId],
      );
      const options = await asB('GET', '/api/site-platform/connect-options');
      assert.deepEqual(
        options.body.oauth_clients.map((c: any) => c.id),
        [bClientRowId],
      );
    });
  });

  describe('OAuth clients, connect, callback and site token', () => {
    it("POST /api/site-platform/oauth-clients: the client_id A registered is registered for B like a never-seen one, and A's client is untouched", async () => {
      const before = await snapshotOfA();
      const mark = world.sim.requests().length;
      const foreign = await asB('POST', '/api/site-platform/oauth-clients', { client_id: aClientId, client_secret: 'b-secret-of-its-own' });
      const fresh = await asB('POST', '/api/site-platform/oauth-clients', {
        client_id: `cid_${uuid()}`,
        client_secret: 'b-secret-of-its-own',
      });
      assert.deepEqual([foreign.status, fresh.status], [201, 201], foreign.text);
      assert.deepEqual(Object.keys(foreign.body).sort(), Object.keys(fresh.body).sort());
      assert.notEqual(foreign.body.id, aClientRowId);
      assert.deepEqual(platformCallsSince(world, mark), []);
      assert.equal(await snapshotOfA(), before);
      await harness().db('site_platform_oauth_clients').whereIn('id', [foreign.body.id, fresh.body.id]).delete();
    });

    it("POST /api/site-platform/connect: A's oauth_app_id and A's connection (site_reconnect) and A's project answer like missing ones", async () => {
      const connect = (body: Record<string, unknown>) => asB('POST', '/api/site-platform/connect', body);
      const byClient = await sameAsMissing(
        () => connect({ intent: 'site_account_connect', oauth_app_id: aClientRowId }),
        () => connect({ intent: 'site_account_connect', oauth_app_id: uuid() }),
      );
      assert.deepEqual([byClient.status, byClient.body.code], [404, 'site_platform_oauth_client_not_found']);
      const byConnection = await sameAsMissing(
        () => connect({ intent: 'site_reconnect', connection_id: aConnectionId }),
        () => connect({ intent: 'site_reconnect', connection_id: uuid() }),
      );
      assert.deepEqual([byConnection.status, byConnection.body.code], [404, 'site_platform_connection_not_found']);
      await sameAsUnknownProject((projectId) => connect({ intent: 'site_project_connect', project_id: projectId }));
    });

    it("GET /api/oauth/site-platform/callback: a state of B naming A's client or connection is refused like a missing one, before any code exchange; so is A's project (404 project_not_found)", async () => {
      const key = stateKey(harness().deps.secretHashKey);
      const bClient = { kind: 'account' as const, id: bClientRowId };
      const callback = (fields: Omit<OAuthState, 'nonce' | 'expiresAt'>) => {
        const state = signState(key, newState(fields, Date.now()));
        return world.app.call('GET', `/api/oauth/site-platform/callback${query({ code: 'code-from-consent', state })}`, {
          headers: { accept: 'application/json' },
        });
      };
      const accountId = b.account.accountId;
      const byClient = await sameAsMissing(
        () => callback({ accountId, intent: 'site_account_connect', client: { kind: 'account', id: aClientRowId } }),
        () => callback({ accountId, intent: 'site_account_connect', client: { kind: 'account', id: uuid() } }),
      );
      assert.deepEqual([byClient.status, byClient.body.code], [409, 'site_platform_oauth_client_missing']);
      const byConnection = await sameAsMissing(
        () => callback({ accountId, intent: 'site_reconnect', client: bClient, connectionId: aConnectionId }),
        () => callback({ accountId, intent: 'site_reconnect', client: bClient, connectionId: uuid() }),
      );
      assert.deepEqual([byConnection.status, byConnection.body.code], [404, 'site_platform_connection_not_found']);
      await sameAsUnknownProject((projectId) => callback({ accountId, intent: 'site_project_connect', client: bClient, projectId }));
    });

    it("POST /api/site-platform/site-token: A's project is 404 project_not_found like an unknown one, before the token is validated; A's site_id is 400 invalid_reference like an unknown site", async () => {
      const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [b.siteId] });
      const paste = (body: Record<string, unknown>) => asB('POST', '/api/site-platform/site-token', { token, ...body });
      await sameAsUnknownProject((projectId) =>
        asB('POST', '/api/site-platform/site-token', {
          token: world.sim.issueToken({ scopes: ALL_SCOPES, siteIds: [b.siteId] }),
          project_id: projectId,
        }),
      );
      const bySite = await sameAsMissing(
        () => paste({ site_id: a.siteId }),
        () => paste({ site_id: 'site_unknown_anywhere' }),
        'same',
      );
      assert.deepEqual([bySite.status, bySite.body.code], [400, 'invalid_reference']);
    });
  });

  describe('operation routes, CMS capabilities and MCP', () => {
    it("GET /api/agent/web/site-platform-ops: A's site_id is 404 site_not_found like a missing one, and A's project_id is 404 project_not_found like an unknown one", async () => {
      const read = (params: Record<string, string>) => agentB('GET', `${OPS}${query({ action: 'cms_collection_list', ...params })}`);
      const bySite = await sameAsMissing(
        () => read({ site_id: a.siteId }),
        () => read({ site_id: 'site_unknown_anywhere' }),
      );
      assert.deepEqual([bySite.status, bySite.body.code], [404, 'site_not_found']);
      await sameAsUnknownProject((projectId) => read({ project_id: projectId }));
    });

    it("POST /api/agent/web/site-platform-ops: writes naming A's site or A's project answer like missing ones and change nothing of A's", async () => {
      const rename = (siteId: string) => ({
        action: 'cms_item_update',
        site_id: siteId,
        collection_id: a.collectionId,
        item_id: a.itemIds[0],
        fieldData: { name: 'Taken over' },
      });
      const bySite = await sameAsMissing(
        () => agentB('POST', OPS, rename(a.siteId)),
        () => agentB('POST', OPS, rename('site_unknown_anywhere')),
      );
      assert.deepEqual([bySite.status, bySite.body.code], [404, 'site_not_found']);
      const switchSource = (projectId: string, siteId?: string) => ({
        action: 'project_cms_provider_set',
        project_id: projectId,
        provider: siteId ? 'site_platform' : 'native',
        site_id: siteId,
        confirm: true,
      });
      await sameAsUnknownProject((projectId) => agentB('POST', OPS, switchSource(projectId)));
      const bySourceSite = await sameAsMissing(
        () => agentB('POST', OPS, switchSource(b.projectId, a.siteId)),
        () => agentB('POST', OPS, switchSource(b.projectId, 'site_unknown_anywhere')),
      );
      assert.deepEqual([bySourceSite.status, bySourceSite.body.code], [404, 'site_not_found']);
    });

    it("GET and POST /api/builder/site-platform/{projectId}/ops: A's project is 404 project_not_found for B's session like an unknown one, and A's site_id on B's project is 404, like a missing one", async () => {
      await sameAsUnknownProject((projectId) => asB('GET', `${builderOps(projectId)}${query({ action: 'cms_collection_list' })}`));
      const write = { action: 'cms_item_update', collection_id: a.collectionId, item_id: a.itemIds[1], fieldData: { name: 'Taken over' } };
      await sameAsUnknownProject((projectId) => asB('POST', builderOps(projectId), write, { 'idempotency-key': `t-${uuid()}` }));
      const bySite = await sameAsMissing(
        () => asB('POST', builderOps(b.projectId), { ...write, site_id: a.siteId }),
        () => asB('POST', builderOps(b.projectId), { ...write, site_id: 'site_unknown_anywhere' }),
      );
      assert.deepEqual([bySite.status, bySite.body.code], [404, 'site_not_found']);
    });

    it("GET /api/builder/site-platform/{projectId}/cms-capabilities: A's project is 404 project_not_found like an unknown one", async () => {
      await sameAsUnknownProject((projectId) => asB('GET', `/api/builder/site-platform/${projectId}/cms-capabilities`));
    });

    it("POST /mcp: tool calls naming A's site come back with the coded error a missing one gets, and naming A's project with 404 project_not_found, like an unknown one", async () => {
      const transport = new StreamableHTTPClientTransport(new URL(`${world.app.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${b.account.agentKey}` } },
      });
      const client = new Client({ name: 'tenancy-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const tool = async (name: string, args: Record<string, unknown>): Promise<{ status: number; body: any }> => {
          const result: any = await client.callTool({ name, arguments: args });
          assert.equal(result.isError, true, JSON.stringify(result));
          const answer = JSON.parse(result.content[0].text);
          return { status: answer.status, body: answer.error };
        };
        const bySite = await sameAsMissing(
          () => tool('platform_cms_collection_list', { site_id: a.siteId }),
          () => tool('platform_cms_collection_list', { site_id: 'site_unknown_anywhere' }),
        );
        assert.deepEqual([bySite.status, bySite.body.code], [404, 'site_not_found']);
        await sameAsUnknownProject((projectId) =>
          tool('platform_cms_item_update', {
            site_id: b.siteId,
            project_id: projectId,
            collection_id: a.collectionId,
            item_id: a.itemIds[2],
            fieldData: { name: 'Taken over' },
          }),
        );
      } finally {
        await client.close();
      }
    });
  });
});
