import assert from 'node:assert/strict';
import { OPERATIONS, getOperation } from '../../../src/sitePlatform/registry';
import { SITE_PLATFORM_PERMISSIONS, connectClient } from './connect';

const key = 'ak_test_full';
// Listing never calls the route, so no target needs to be listening.
const target = { apiBaseUrl: 'http://127.0.0.1:9', agentKey: key };

describe('site-platform MCP: tool list', () => {
  it('a full agent key sees 111 tools, one platform_<action> per registry operation', async () => {
    const { client, close } = await connectClient({ ...target, readOnly: false, permissions: SITE_PLATFORM_PERMISSIONS });
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, 111);
      assert.deepEqual(tools.map((t) => t.name).sort(), OPERATIONS.map((op) => `platform_${op.name}`).sort());
    } finally {
      await close();
    }
  });

  it('a read-only agent key sees only the read tools, classed by route verb alone', async () => {
    const { client, close } = await connectClient({ ...target, readOnly: true, permissions: SITE_PLATFORM_PERMISSIONS });
    try {
      const { tools } = await client.listTools();
      const reads = OPERATIONS.filter((op) => op.kind === 'read');
      assert.equal(tools.length, reads.length);
      assert.ok(tools.length > 0 && tools.length < 111);
      for (const tool of tools) assert.equal(getOperation(tool.name.replace(/^platform_/, ''))?.kind, 'read', tool.name);
      // page_schema_bulk_get is a platform POST but a read: it stays visible to a read-only key.
      assert.ok(tools.some((t) => t.name === 'platform_page_schema_bulk_get'));
      assert.ok(!tools.some((t) => t.name === 'platform_site_publish'));
    } finally {
      await close();
    }
  });

  it('each tool takes the operation parameters plus project_id and site_id as its input schema', async () => {
    const { client, close } = await connectClient({ ...target, readOnly: false, permissions: SITE_PLATFORM_PERMISSIONS });
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const publish = byName.get('platform_site_publish')!;
      const props = publish.inputSchema.properties as Record<string, unknown>;
      for (const p of ['site_id', 'project_id', 'confirm', 'customDomains', 'publishToWebflowSubdomain']) assert.ok(p in props, p);
      assert.deepEqual(publish.inputSchema.required, ['site_id']);
      const introspect = byName.get('platform_token_introspect')!;
      assert.deepEqual(Object.keys(introspect.inputSchema.properties ?? {}).sort(), ['project_id', 'site_id']);
      for (const tool of tools) {
        assert.ok('project_id' in (tool.inputSchema.properties ?? {}), tool.name);
        assert.ok('site_id' in (tool.inputSchema.properties ?? {}), tool.name);
      }
    } finally {
      await close();
    }
  });

  it('the description names read or write and the gates', async () => {
    const { client, close } = await connectClient({ ...target, readOnly: false, permissions: SITE_PLATFORM_PERMISSIONS });
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const webhookCreate = byName.get('platform_webhook_create')!.description!;
      assert.match(webhookCreate, /^Write operation webhook_create/);
      assert.match(webhookCreate, /confirm_required/);
      assert.match(webhookCreate, /oauth_required/);
      assert.match(webhookCreate, /sites:write/);
      assert.match(byName.get('platform_page_dom_update')!.description!, /secondary_locale_required/);
      assert.match(byName.get('platform_site_list')!.description!, /^Read operation site_list/);
      assert.equal(byName.get('platform_site_list')!.annotations?.readOnlyHint, true);
      assert.match(byName.get('platform_redirect_list')!.description!, /not_enterprise_plan_site/);
    } finally {
      await close();
    }
  });
});
