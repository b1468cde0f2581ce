import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { authenticateAgentKey } from '../../../src/auth/service';
import { ApiError } from '../../../src/http/errors';
import { runAgentOperation } from '../../../src/sitePlatform/operations/service';
import { newAgentKey } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { type SiteWorld } from '../connections/fixtures';
import { OPS, auditRows, platformCallsSince, type Tenant, useTenantWorld } from '../operations/fixtures';

async function mcpClient(baseUrl: string, agentKey: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${agentKey}` } },
  });
  const client = new Client({ name: 'mcp-in-process-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Requests the app served per matched route, from its own /metrics (each private app has its own registry). */
async function servedByRoute(world: SiteWorld): Promise<Map<string, number>> {
  const res = await world.app.call('GET', '/metrics');
  const served = new Map<string, number>();
  for (const line of res.text.split('\n')) {
    const m = /^http_request_duration_seconds_count\{([^}]*)\} (\d+)/.exec(line);
    const route = m && /route="([^"]*)"/.exec(m[1])?.[1];
    if (m && route) served.set(route, (served.get(route) ?? 0) + Number(m[2]));
  }
  return served;
}

const text = (result: any): any => JSON.parse(result.content[0].text);

describe('site-platform MCP: tools run the operations in process', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  it('a tool call is one request to the API: the agent operation route is never called back', async () => {
    const client = await mcpClient(world.app.baseUrl, t.account.agentKey);
    try {
      const before = await servedByRoute(world);
      const read: any = await client.callTool({
        name: 'platform_cms_item_list',
        arguments: { site_id: t.siteId, collection_id: t.collectionId },
      });
      const write: any = await client.callTool({
        name: 'platform_cms_item_update',
        arguments: { site_id: t.siteId, collection_id: t.collectionId, item_id: t.itemIds[0], fieldData: { name: 'In process' } },
      });
      assert.equal(read.isError, undefined, read.content[0].text);
      assert.equal(write.isError, undefined, write.content[0].text);
      assert.equal(text(read).action, 'cms_item_list');
      assert.equal(text(write).action, 'cms_item_update');
      const after = await servedByRoute(world);
      assert.equal((after.get('/mcp') ?? 0) - (before.get('/mcp') ?? 0), 2);
      assert.equal(after.get(OPS) ?? 0, 0);
    } finally {
      await client.close();
    }
  });

  it("an MCP write shares the agent route's idempotency slot and audit actor", async () => {
    const params = { site_id: t.siteId, collection_id: t.collectionId, item_id: t.itemIds[1], fieldData: { name: 'Shared slot' } };
    const mark = world.sim.requests().length;
    const client = await mcpClient(world.app.baseUrl, t.account.agentKey);
    try {
      const viaMcp: any = await client.callTool({ name: 'platform_cms_item_update', arguments: params });
      assert.equal(viaMcp.isError, undefined, viaMcp.content[0].text);
      const viaRoute = await world.app.call('POST', OPS, { token: t.account.agentKey, body: { action: 'cms_item_update', ...params } });
      assert.equal(viaRoute.status, 200, viaRoute.text);
      assert.equal(viaRoute.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(viaRoute.body, text(viaMcp));
      assert.equal(platformCallsSince(world, mark).filter((c) => c.startsWith('PATCH')).length, 1);
      const audited = (await auditRows(t.account.accountId)).filter(
        (r) => r.action === 'platform.cms_item_update' && r.target === t.itemIds[1],
      );
      assert.deepEqual(
        audited.map((r) => r.actor),
        ['agent:default'],
      );
    } finally {
      await client.close();
    }
  });

  it('an MCP error is the coded body the agent route answers', async () => {
    const client = await mcpClient(world.app.baseUrl, t.account.agentKey);
    try {
      const result: any = await client.callTool({ name: 'platform_site_publish', arguments: { site_id: t.siteId } });
      assert.equal(result.isError, true);
      const { status, error } = text(result);
      assert.equal(status, 412);
      assert.equal(error.code, 'confirm_required');
      assert.equal(error.status, 412);
      assert.equal(typeof error.request_id, 'string');
    } finally {
      await client.close();
    }
  });

  it('a tool call with an unknown argument is an error result naming it, and nothing reaches the platform or the audit log', async () => {
    const client = await mcpClient(world.app.baseUrl, t.account.agentKey);
    try {
      const { tools } = await client.listTools();
      const schema = tools.find((tool) => tool.name === 'platform_cms_item_update')!.inputSchema as { additionalProperties?: unknown };
      assert.equal(schema.additionalProperties, false, 'the input schema says no other argument is taken');
      const mark = world.sim.requests().length;
      const audited = (await auditRows(t.account.accountId)).length;
      const result: any = await client.callTool({
        name: 'platform_cms_item_update',
        arguments: { site_id: t.siteId, collection_id: t.collectionId, item_id: t.itemIds[0], fieldData: { name: 'No' }, bogusParam: 1 },
      });
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /bogusParam/);
      assert.equal(world.sim.requests().length, mark);
      assert.equal((await auditRows(t.account.accountId)).length, audited);
    } finally {
      await client.close();
    }
  });

  it("a read-only key's write is refused by the operation service itself (403 read_only_key), not only hidden", async () => {
    const { deps } = harness();
    const auth = await authenticateAgentKey(
      deps.db,
      deps.secretHashKey,
      await newAgentKey(t.account.accountId, ['site_platform:read', 'site_platform:write'], true),
    );
    assert.ok(auth?.kind === 'agent');
    const mark = world.sim.requests().length;
    await assert.rejects(
      runAgentOperation(deps, auth, {
        method: 'POST',
        input: {
          action: 'cms_item_update',
          site_id: t.siteId,
          collection_id: t.collectionId,
          item_id: t.itemIds[2],
          fieldData: { name: 'No' },
        },
      }),
      (err: unknown) => err instanceof ApiError && err.status === 403 && err.code === 'read_only_key',
    );
    assert.equal(world.sim.requests().length, mark);
  });
});
