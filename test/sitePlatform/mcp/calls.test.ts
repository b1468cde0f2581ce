import assert from 'node:assert/strict';
import { SITE_PLATFORM_PERMISSIONS, connectClient } from './connect';
import { startStubRoute, type StubRoute } from './stubRoute';

const text = (result: any): any => JSON.parse(result.content[0].text);

// The agent operation route (src/sitePlatform/operations) had not landed when these were written, so the mapping is
// checked against a loopback stand-in that records what the tools send.
describe('site-platform MCP: tool calls map to the agent operation route', () => {
  let stub: StubRoute;
  beforeEach(async () => {
    stub = await startStubRoute();
  });
  afterEach(async () => {
    await stub.close();
  });

  it("a read tool sends GET with action and parameters as the query and the caller's key as bearer", async () => {
    const { client, close } = await connectClient({
      apiBaseUrl: stub.baseUrl,
      agentKey: 'ak_reader',
      readOnly: true,
      permissions: SITE_PLATFORM_PERMISSIONS,
    });
    try {
      stub.answer = { status: 200, body: { items: [{ id: 'i1' }], pagination: { offset: 5, limit: 10, total: 6 } } };
      const result: any = await client.callTool({
        name: 'platform_cms_item_list',
        arguments: { site_id: 'site_1', collection_id: 'col_1', offset: 5, limit: 10, project_id: 'proj_1' },
      });
      assert.equal(result.isError, undefined);
      assert.deepEqual(text(result), stub.answer.body);
      assert.equal(stub.seen.length, 1);
      const [req] = stub.seen;
      assert.equal(req.method, 'GET');
      assert.equal(req.path, '/api/agent/web/site-platform-ops');
      assert.equal(req.authorization, 'Bearer ak_reader');
      assert.deepEqual(req.query, {
        action: 'cms_item_list',
        site_id: 'site_1',
        collection_id: 'col_1',
        offset: '5',
        limit: '10',
        project_id: 'proj_1',
      });
    } finally {
      await close();
    }
  });

  it('a read tool sends array parameters JSON-encoded in one query key', async () => {
    const { client, close } = await connectClient({
      apiBaseUrl: stub.baseUrl,
      agentKey: 'ak_reader',
      readOnly: true,
      permissions: SITE_PLATFORM_PERMISSIONS,
    });
    try {
      const pages = [{ id: 'p1' }, { id: 'p2', localeId: 'fr' }];
      await client.callTool({ name: 'platform_page_schema_bulk_get', arguments: { site_id: 'site_1', pages } });
      assert.equal(stub.seen[0].method, 'GET');
      assert.deepEqual(JSON.parse(stub.seen[0].query.pages), pages);
    } finally {
      await close();
    }
  });

  it('a write tool sends POST with { action, ...parameters } as the JSON body', async () => {
    const { client, close } = await connectClient({
      apiBaseUrl: stub.baseUrl,
      agentKey: 'ak_writer',
      readOnly: false,
      permissions: SITE_PLATFORM_PERMISSIONS,
    });
    try {
      stub.answer = { status: 200, body: { queued: true } };
      const result: any = await client.callTool({ name: 'platform_site_publish', arguments: { site_id: 'site_1', confirm: true } });
      assert.deepEqual(text(result), { queued: true });
      const [req] = stub.seen;
      assert.equal(req.method, 'POST');
      assert.equal(req.path, '/api/agent/web/site-platform-ops');
      assert.equal(req.authorization, 'Bearer ak_writer');
      assert.match(req.contentType ?? '', /application\/json/);
      assert.deepEqual(req.body, { action: 'site_publish', site_id: 'site_1', confirm: true });
    } finally {
      await close();
    }
  });

  it('a coded error from the route comes back as an error result carrying status and code', async () => {
    const { client, close } = await connectClient({
      apiBaseUrl: stub.baseUrl,
      agentKey: 'ak_writer',
      readOnly: false,
      permissions: SITE_PLATFORM_PERMISSIONS,
    });
    try {
      stub.answer = { status: 412, body: { code: 'confirm_required', message: 'send confirm: true', status: 412 } };
      const result: any = await client.callTool({ name: 'platform_site_publish', arguments: { site_id: 'site_1' } });
      assert.equal(result.isError, true);
      assert.deepEqual(text(result), { status: 412, error: stub.answer.body });
    } finally {
      await close();
    }
  });

  it('parameters failing the operation schema are refused before the route is called', async () => {
    const { client, close } = await connectClient({
      apiBaseUrl: stub.baseUrl,
      agentKey: 'ak_reader',
      readOnly: true,
      permissions: SITE_PLATFORM_PERMISSIONS,
    });
    try {
      const result: any = await client
        .callTool({ name: 'platform_cms_item_list', arguments: { site_id: 'site_1', collection_id: 'c', limit: 500 } })
        .catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
      assert.equal(result.isError, true);
      assert.equal(stub.seen.length, 0);
    } finally {
      await close();
    }
  });

  it('a read-only key cannot call a write tool: it is not registered', async () => {
    const { client, close } = await connectClient({
      apiBaseUrl: stub.baseUrl,
      agentKey: 'ak_reader',
      readOnly: true,
      permissions: SITE_PLATFORM_PERMISSIONS,
    });
    try {
      const result: any = await client
        .callTool({ name: 'platform_site_publish', arguments: { site_id: 'site_1', confirm: true } })
        .catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
      assert.equal(result.isError, true);
      assert.equal(stub.seen.length, 0);
    } finally {
      await close();
    }
  });

  it('an unreachable route answers a coded error result, not a thrown failure', async () => {
    await stub.close();
    const { client, close } = await connectClient({
      apiBaseUrl: stub.baseUrl,
      agentKey: 'ak_reader',
      readOnly: true,
      permissions: SITE_PLATFORM_PERMISSIONS,
    });
    try {
      const result: any = await client.callTool({ name: 'platform_site_list', arguments: {} });
      assert.equal(result.isError, true);
      assert.equal(text(result).error.code, 'operation_route_unreachable');
    } finally {
      await close();
      stub = await startStubRoute();
    }
  });
});
