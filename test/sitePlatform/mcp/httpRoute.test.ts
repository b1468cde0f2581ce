import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OPERATIONS } from '../../../src/sitePlatform/registry';
import { newAccount, newAgentKey } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';

async function httpClient(agentKey: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${harness().baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${agentKey}` } },
  });
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('site-platform MCP: POST /mcp (Streamable HTTP, agent key)', () => {
  it('a full agent key lists 111 tools over HTTP', async () => {
    const account = await newAccount();
    const client = await httpClient(account.agentKey);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 111);
    } finally {
      await client.close();
    }
  });

  it('a read-only agent key is served, and lists only the read tools', async () => {
    const account = await newAccount();
    const client = await httpClient(await newAgentKey(account.accountId, ['site_platform:read', 'site_platform:write'], true));
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, OPERATIONS.filter((op) => op.kind === 'read').length);
      assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
    } finally {
      await client.close();
    }
  });

  it('no key is 401 missing_credentials; a bad key 401 invalid_credentials', async () => {
    const rpc = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const headers = { accept: 'application/json, text/event-stream' };
    const none = await call('POST', '/mcp', { body: rpc, headers });
    assert.equal(none.status, 401);
    assert.equal(none.body.code, 'missing_credentials');
    const bad = await call('POST', '/mcp', { body: rpc, headers, token: 'ak_nope_nope' });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.code, 'invalid_credentials');
  });

  // End to end once the agent operation route is mounted (another helper's work); skipped, not faked, until then.
  it("a read tool called over /mcp reaches the agent operation route with the caller's key", async function () {
    const account = await newAccount();
    const probe = await call('GET', '/api/agent/web/site-platform-ops?action=site_list', { token: account.agentKey });
    if (probe.body?.code === 'route_not_found') this.skip();
    const client = await httpClient(account.agentKey);
    try {
      const result: any = await client.callTool({ name: 'platform_site_list', arguments: {} });
      const answer = JSON.parse(result.content[0].text);
      // The tool answers exactly what the route answers for the same call.
      if (result.isError) assert.deepEqual({ ...answer.error, request_id: undefined }, { ...probe.body, request_id: undefined });
      else assert.deepEqual(answer, probe.body);
      assert.equal(Boolean(result.isError), probe.status >= 400);
    } finally {
      await client.close();
    }
  });
});
