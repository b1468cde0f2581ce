import assert from 'node:assert/strict';
import type { Permission } from '../../../src/auth/permissions';
import { runTool, toolsFor } from '../../../src/marketing/ai/tools';
import type { ToolDeps } from '../../../src/marketing/ai/tools';
import { OPERATIONS } from '../../../src/sitePlatform/registry';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { type SiteWorld } from '../../sitePlatform/connections/fixtures';
import { OPS, auditRows, platformCallsSince, query, type Tenant, useTwoTenantWorld } from '../../sitePlatform/operations/fixtures';
import { agentCaller, bodyOf, contextOf, sessionCaller, toolCall, toolDepsOf } from './fixtures';

const CONTENT_TOOLS = [
  'content_list',
  'content_get',
  'content_update',
  'content_seo_check',
  'content_images_preview',
  'content_images_run',
  'content_research',
];

async function createItem(token: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/marketing/content', { token, body: { title: 'Tool post', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

describe('department chat tools: the catalogue a caller is offered', () => {
  it('a full agent key is offered the 111 platform tools, then the content tools, in a stable order', async () => {
    const caller = await agentCaller((await newAccount()).accountId);
    const tools = toolsFor(caller);
    assert.deepEqual(
      tools.map((t) => t.name),
      [...OPERATIONS.map((op) => `platform_${op.name}`), ...CONTENT_TOOLS],
    );
    assert.deepEqual(toolsFor(caller), tools);
    const publish = tools.find((t) => t.name === 'platform_site_publish')!;
    assert.equal(publish.kind, 'write');
    assert.equal(publish.confirmGated, true);
    assert.equal(publish.family, 'platform');
    assert.equal(tools.find((t) => t.name === 'platform_page_schema_bulk_get')!.kind, 'read');
  });

  it('every parameters schema is a JSON object schema without confirm, and every name fits the protocol', () => {
    const tools = toolsFor({ kind: 'session', accountId: 'a', userId: 'u' });
    assert.equal(tools.length, 111 + CONTENT_TOOLS.length);
    for (const tool of tools) {
      assert.match(tool.name, /^[a-zA-Z0-9_-]{1,64}$/);
      assert.equal(tool.parameters.type, 'object', tool.name);
      assert.equal(typeof tool.parameters.properties, 'object', tool.name);
      assert.ok(!('confirm' in (tool.parameters.properties as object)), tool.name);
      assert.ok(!((tool.parameters.required as string[] | undefined) ?? []).includes('confirm'), tool.name);
      assert.ok(!('$schema' in tool.parameters), tool.name);
      assert.doesNotThrow(() => JSON.parse(JSON.stringify(tool.parameters)));
    }
    const update = tools.find((t) => t.name === 'content_update')!;
    assert.ok('title' in (update.parameters.properties as object));
    assert.ok(!('created_at' in (update.parameters.properties as object)), 'echoed read-only keys are not offered');
    assert.deepEqual(update.parameters.required, ['content_id']);
  });

  it('a read-only key is offered no write tool', async () => {
    const caller = await agentCaller(
      (await newAccount()).accountId,
      ['marketing.content:read', 'marketing.content:update', 'site_platform:read', 'site_platform:write'],
      true,
    );
    const tools = toolsFor(caller);
    assert.ok(tools.length > 0);
    assert.ok(tools.every((t) => t.kind === 'read'));
    assert.equal(tools.filter((t) => t.family === 'platform').length, OPERATIONS.filter((op) => op.kind === 'read').length);
    assert.deepEqual(
      tools.filter((t) => t.family === 'content').map((t) => t.name),
      ['content_list', 'content_get', 'content_seo_check', 'content_images_preview'],
    );
  });

  it('a key without marketing.content:update has no content_update, research or image run; one without read has no content tool', async () => {
    const accountId = (await newAccount()).accountId;
    const reader = toolsFor(await agentCaller(accountId, ['marketing.content:read'])).map((t) => t.name);
    assert.ok(reader.includes('content_get'));
    for (const name of ['content_update', 'content_research', 'content_images_run']) assert.ok(!reader.includes(name), name);
    const none = toolsFor(await agentCaller(accountId, ['crm:read']));
    assert.deepEqual(none, [], 'neither a content nor a site platform permission: no tool');
  });

  it('platform tools ask what the agent operation route asks: site_platform:read for a read tool, site_platform:write for a write tool', async () => {
    const accountId = (await newAccount()).accountId;
    const platformOf = async (permissions: Permission[]) =>
      toolsFor(await agentCaller(accountId, permissions)).filter((t) => t.family === 'platform');
    const reads = OPERATIONS.filter((op) => op.kind === 'read').map((op) => `platform_${op.name}`);
    const writes = OPERATIONS.filter((op) => op.kind === 'write').map((op) => `platform_${op.name}`);
    assert.deepEqual(await platformOf(['marketing.content:read']), [], 'a content permission opens no platform tool');
    assert.deepEqual(
      (await platformOf(['site_platform:read'])).map((t) => t.name),
      reads,
    );
    assert.deepEqual(
      (await platformOf(['site_platform:write'])).map((t) => t.name),
      writes,
    );
    assert.equal((await platformOf(['site_platform:read', 'site_platform:write'])).length, 111);
  });
});

describe('department chat tools: runTool', () => {
  let world: SiteWorld;
  let t: Tenant;
  let other: Tenant;
  let deps: ToolDeps;
  useTwoTenantWorld((w, a, b) => {
    world = w;
    t = a;
    other = b;
    deps = toolDepsOf(w);
  });

  it('a platform read runs through the runner and answers what the agent operation route answers', async () => {
    const caller = await agentCaller(t.account.accountId);
    const outcome = await runTool(deps, contextOf(caller), toolCall('platform_page_list', { site_id: t.siteId }));
    assert.equal(outcome.status, 'ok', outcome.content);
    assert.equal(outcome.http_status, 200);
    assert.deepEqual(outcome.data_updates, []);
    const viaRoute = await world.app.call('GET', `${OPS}${query({ action: 'page_list', site_id: t.siteId })}`, {
      token: t.account.agentKey,
    });
    assert.equal(viaRoute.status, 200, viaRoute.text);
    assert.deepEqual(bodyOf(outcome), viaRoute.body);
  });

  it('a confirm-gated write without confirmation needs confirmation and reaches nothing; the model cannot confirm it itself', async () => {
    const caller = await agentCaller(t.account.accountId);
    const mark = world.sim.requests().length;
    const args = { site_id: t.siteId, collection_id: t.collectionId, itemIds: [t.itemIds[0]], confirm: true };
    const outcome = await runTool(deps, contextOf(caller), toolCall('platform_cms_item_publish', args));
    assert.equal(outcome.status, 'needs_confirmation');
    assert.equal(outcome.http_status, 412);
    assert.deepEqual(outcome.data_updates, []);
    const pending = bodyOf(outcome);
    assert.equal(pending.code, 'confirmation_required');
    assert.equal(pending.tool, 'platform_cms_item_publish');
    assert.deepEqual(pending.arguments, { site_id: t.siteId, collection_id: t.collectionId, itemIds: [t.itemIds[0]] });
    assert.match(pending.reason, /confirm/);
    assert.deepEqual(platformCallsSince(world, mark), []);
  });

  it('a confirmed gated write runs, names its data update, and is audited as the turn', async () => {
    const caller = await agentCaller(t.account.accountId);
    const ctx = contextOf(caller, { confirmed: true, actor: 'workflow:ai-turn:acct:turn-7:run-abc' });
    const mark = world.sim.requests().length;
    const outcome = await runTool(
      deps,
      ctx,
      toolCall('platform_cms_item_publish', { site_id: t.siteId, collection_id: t.collectionId, itemIds: [t.itemIds[0]] }),
    );
    assert.equal(outcome.status, 'ok', outcome.content);
    assert.equal(bodyOf(outcome).action, 'cms_item_publish');
    assert.deepEqual(outcome.data_updates, [
      { type: 'site_platform', id: null, action: 'cms_item_publish', tool: 'platform_cms_item_publish' },
    ]);
    assert.equal(platformCallsSince(world, mark).filter((c) => c.startsWith('POST')).length, 1);
    const audited = (await auditRows(t.account.accountId)).filter((r) => r.action === 'platform.cms_item_publish');
    assert.deepEqual(
      audited.map((r) => r.actor),
      [ctx.actor],
    );
  });

  it('the same idempotency key twice reaches the platform once and answers the first answer again', async () => {
    const caller = await agentCaller(t.account.accountId);
    const ctx = contextOf(caller);
    const args = { site_id: t.siteId, collection_id: t.collectionId, item_id: t.itemIds[1], fieldData: { name: 'From a chat' } };
    const mark = world.sim.requests().length;
    const first = await runTool(deps, ctx, toolCall('platform_cms_item_update', args));
    const again = await runTool(deps, ctx, toolCall('platform_cms_item_update', args));
    assert.equal(first.status, 'ok', first.content);
    assert.deepEqual(again, first);
    assert.equal(first.data_updates[0].id, t.itemIds[1]);
    assert.equal(platformCallsSince(world, mark).filter((c) => c.startsWith('PATCH')).length, 1);
  });

  it("a pinned project overrides the model's project_id and gives the call that project's site", async () => {
    const caller = await agentCaller(t.account.accountId);
    const pinned = contextOf(caller, { projectId: t.projectId });
    // The other tenant's project would be 404 project_not_found were it used; the pin replaces it.
    const outcome = await runTool(deps, pinned, toolCall('platform_site_get', { project_id: other.projectId }));
    assert.equal(outcome.status, 'ok', outcome.content);
    assert.equal(bodyOf(outcome).result.id, t.siteId);
    const unpinned = await runTool(deps, contextOf(caller), toolCall('platform_site_get', { project_id: other.projectId }));
    assert.equal(unpinned.status, 'error');
    assert.equal(unpinned.http_status, 404);
    assert.equal(bodyOf(unpinned).code, 'project_not_found');
    const foreignPin = await runTool(deps, contextOf(caller, { projectId: other.projectId }), toolCall('platform_site_get', {}));
    assert.equal(foreignPin.http_status, 404);
  });

  it('invalid arguments are a coded 400 outcome, never a throw', async () => {
    const caller = await agentCaller(t.account.accountId);
    const mark = world.sim.requests().length;
    const bad = await runTool(
      deps,
      contextOf(caller),
      toolCall('platform_cms_item_update', { site_id: t.siteId, collection_id: t.collectionId, item_id: t.itemIds[2], fieldData: 'x' }),
    );
    assert.equal(bad.status, 'error');
    assert.equal(bad.http_status, 400);
    assert.equal(bodyOf(bad).code, 'validation_failed');
    const gated = await runTool(
      deps,
      contextOf(caller),
      toolCall('platform_cms_item_publish', { site_id: t.siteId, collection_id: t.collectionId }),
    );
    assert.equal(gated.http_status, 400, 'a gated call that cannot run is refused before the user is asked');
    assert.deepEqual(platformCallsSince(world, mark), []);
    const content = await runTool(deps, contextOf(caller), toolCall('content_update', { content_id: 'x', colour: 'red' }));
    assert.equal(content.http_status, 400);
    assert.equal(bodyOf(content).code, 'validation_failed');
    const notObject = await runTool(deps, contextOf(caller), { id: 'call_1', name: 'content_list', arguments: [] as never });
    assert.equal(notObject.http_status, 400);
  });

  it('content_update changes the item through the agent PATCH path and names the data update', async () => {
    const item = await createItem(t.account.ownerToken);
    const caller = await agentCaller(t.account.accountId, ['marketing.content:read', 'marketing.content:update']);
    const outcome = await runTool(deps, contextOf(caller), toolCall('content_update', { content_id: item.id, title: 'Renamed by chat' }));
    assert.equal(outcome.status, 'ok', outcome.content);
    assert.equal(bodyOf(outcome).title, 'Renamed by chat');
    assert.deepEqual(outcome.data_updates, [{ type: 'content_item', id: item.id, action: 'updated', tool: 'content_update' }]);
    const stored = await call('GET', `/api/marketing/content/${item.id}`, { token: t.account.ownerToken });
    assert.equal(stored.body.title, 'Renamed by chat');
    const read = await runTool(deps, contextOf(caller), toolCall('content_get', { content_id: item.id }));
    assert.equal(bodyOf(read).title, 'Renamed by chat');
    assert.ok('url' in bodyOf(read) && 'scheduled_publish' in bodyOf(read));
  });

  it("content_get of another account's item is a 404 outcome like a missing one", async () => {
    const theirs = await createItem(other.account.ownerToken);
    const outcome = await runTool(deps, contextOf(sessionCaller(t.account)), toolCall('content_get', { content_id: theirs.id }));
    assert.equal(outcome.status, 'error');
    assert.equal(outcome.http_status, 404);
    assert.equal(bodyOf(outcome).code, 'content_not_found');
  });

  it('a pinned chat lists and reads only the items linked to its project', async () => {
    const linked = await createItem(t.account.ownerToken, { title: 'Linked pin post' });
    const loose = await createItem(t.account.ownerToken, { title: 'Loose pin post' });
    await harness()
      .db('content_items')
      .where({ id: linked.id })
      .update({ cms_link: JSON.stringify({ project_id: t.projectId, collection_id: t.collectionId, item_id: null }) });
    const ctx = contextOf(sessionCaller(t.account), { projectId: t.projectId });
    const listed = bodyOf(await runTool(deps, ctx, toolCall('content_list', { search: 'pin post' })));
    assert.deepEqual(
      listed.data.map((i: { id: string }) => i.id),
      [linked.id],
    );
    assert.equal(listed.total, 1);
    const unpinned = bodyOf(await runTool(deps, contextOf(sessionCaller(t.account)), toolCall('content_list', { search: 'pin post' })));
    assert.equal(unpinned.total, 2);
    assert.equal((await runTool(deps, ctx, toolCall('content_get', { content_id: loose.id }))).http_status, 404);
    assert.equal((await runTool(deps, ctx, toolCall('content_seo_check', { content_id: linked.id }))).status, 'ok');
  });

  it('content_research starts the job without waiting and answers its id; a retry attaches to the same job', async () => {
    const item = await createItem(t.account.ownerToken);
    const ctx = contextOf(await agentCaller(t.account.accountId, ['marketing.content:update']));
    const outcome = await runTool(deps, ctx, toolCall('content_research', { content_id: item.id, max_sources: 1 }));
    assert.equal(outcome.status, 'ok', outcome.content);
    const { job_id } = bodyOf(outcome);
    assert.match(job_id, /^research:/);
    assert.deepEqual(outcome.data_updates, [{ type: 'job', id: job_id, action: 'started', tool: 'content_research' }]);
    const retry = await runTool(deps, ctx, toolCall('content_research', { content_id: item.id, max_sources: 1 }));
    assert.equal(bodyOf(retry).job_id, job_id);
    await harness()
      .client.workflow.getHandle(job_id)
      .terminate('test done')
      .catch(() => undefined);
  });

  it('a tool the caller is not offered answers tool_not_available', async () => {
    const readOnly = await agentCaller(t.account.accountId, ['marketing.content:read'], true);
    const mark = world.sim.requests().length;
    const write = await runTool(
      deps,
      contextOf(readOnly),
      toolCall('platform_cms_item_update', { site_id: t.siteId, collection_id: t.collectionId, item_id: t.itemIds[2] }),
    );
    assert.equal(write.status, 'error');
    assert.equal(write.http_status, 403);
    assert.equal(bodyOf(write).code, 'tool_not_available');
    assert.deepEqual(platformCallsSince(world, mark), []);
    const update = await runTool(deps, contextOf(readOnly), toolCall('content_update', { content_id: 'x', title: 'No' }));
    assert.equal(bodyOf(update).code, 'tool_not_available');
    const unknown = await runTool(deps, contextOf(readOnly), toolCall('platform_no_such_thing', {}));
    assert.equal(unknown.http_status, 404);
    assert.equal(bodyOf(unknown).code, 'tool_not_available');
  });
});
