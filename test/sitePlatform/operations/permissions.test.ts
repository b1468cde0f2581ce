import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OPERATIONS } from '../../../src/sitePlatform/registry';
import { newAgentKey } from '../../helpers/accounts';
import { type SiteWorld } from '../connections/fixtures';
import { OPS, auditRows, query, type Tenant, useTenantWorld } from './fixtures';

async function mcpClient(baseUrl: string, agentKey: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${agentKey}` } },
  });
  const client = new Client({ name: 'site-platform-permissions-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('site platform operations: agent key permissions', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  const itemCreate = () => ({
    action: 'cms_item_create',
    site_id: t.siteId,
    collection_id: t.collectionId,
    fieldData: { name: 'Written', slug: `written-${Date.now()}` },
  });
  const siteGet = () => `${OPS}${query({ action: 'site_get', site_id: t.siteId })}`;

  it('an operation write with a crm:read-only key is 403 missing_permission and nothing reaches the simulator', async () => {
    const key = await newAgentKey(t.account.accountId, ['crm:read']);
    const mark = world.sim.requests().length;
    const audited = (await auditRows(t.account.accountId)).length;
    const res = await world.app.call('POST', OPS, { token: key, body: itemCreate() });
    assert.deepEqual([res.status, res.body.code], [403, 'missing_permission'], res.text);
    assert.match(res.body.message, /site_platform:write/);
    const read = await world.app.call('GET', siteGet(), { token: key });
    assert.deepEqual([read.status, read.body.code], [403, 'missing_permission'], read.text);
    assert.match(read.body.message, /site_platform:read/);
    assert.equal(world.sim.requests().length, mark, 'nothing reached the platform');
    assert.equal((await auditRows(t.account.accountId)).length, audited);
  });

  it('a key holding only site_platform:read reads, and its write is 403 missing_permission', async () => {
    const key = await newAgentKey(t.account.accountId, ['site_platform:read']);
    const read = await world.app.call('GET', siteGet(), { token: key });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.result.id, t.siteId);
    const mark = world.sim.requests().length;
    const write = await world.app.call('POST', OPS, { token: key, body: itemCreate() });
    assert.deepEqual([write.status, write.body.code], [403, 'missing_permission'], write.text);
    assert.equal(world.sim.requests().length, mark);
  });

  it('a key holding site_platform:write writes; a read-only key keeps its rule (403 read_only_key on a write)', async () => {
    const writer = await newAgentKey(t.account.accountId, ['site_platform:write']);
    const created = await world.app.call('POST', OPS, { token: writer, body: itemCreate() });
    assert.equal(created.status, 200, created.text);
    const readOnly = await newAgentKey(t.account.accountId, ['site_platform:read', 'site_platform:write'], true);
    assert.equal((await world.app.call('GET', siteGet(), { token: readOnly })).status, 200);
    const refused = await world.app.call('POST', OPS, { token: readOnly, body: itemCreate() });
    assert.deepEqual([refused.status, refused.body.code], [403, 'read_only_key'], refused.text);
  });

  it('/mcp: a key with no site platform permission is 403 missing_permission before any tool is listed', async () => {
    const key = await newAgentKey(t.account.accountId, ['crm:read']);
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const res = await world.app.call('POST', '/mcp', { token: key, body: rpc, headers: { accept: 'application/json, text/event-stream' } });
    assert.deepEqual([res.status, res.body.code], [403, 'missing_permission'], res.text);
  });

  it('/mcp: a key holding only site_platform:read lists only the read tools, and a write tool call is refused with nothing sent', async () => {
    const key = await newAgentKey(t.account.accountId, ['site_platform:read']);
    const client = await mcpClient(world.app.baseUrl, key);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name).sort(),
        OPERATIONS.filter((op) => op.kind === 'read')
          .map((op) => `platform_${op.name}`)
          .sort(),
      );
      const read: any = await client.callTool({ name: 'platform_site_get', arguments: { site_id: t.siteId } });
      assert.equal(read.isError, undefined, read.content[0].text);
      const mark = world.sim.requests().length;
      const { action: _action, ...args } = itemCreate();
      const write: any = await client.callTool({ name: 'platform_cms_item_create', arguments: args });
      assert.equal(write.isError, true);
      assert.match(write.content[0].text, /platform_cms_item_create/);
      assert.equal(world.sim.requests().length, mark);
    } finally {
      await client.close();
    }
  });

  it('/mcp: a key holding only site_platform:write lists only the write tools', async () => {
    const key = await newAgentKey(t.account.accountId, ['site_platform:write']);
    const client = await mcpClient(world.app.baseUrl, key);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, OPERATIONS.filter((op) => op.kind === 'write').length);
      assert.ok(tools.every((tool) => tool.annotations?.readOnlyHint === false));
    } finally {
      await client.close();
    }
  });
});
