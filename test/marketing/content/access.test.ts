import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { z } from 'zod';
import { errorMiddleware } from '../../../src/http/errors';
import { literalPathsFirst, mountRoutes } from '../../../src/http/mount';
import { routeAuth } from '../../../src/auth/routeAuth';
import { route, type RouteDef } from '../../../src/http/route';
import { apiRoutes } from '../../../src/app/routes';
import { contentRoutes } from '../../../src/marketing/content/routes';
import { callAt } from '../../helpers/http';
import { call } from '../../helpers/http';
import { newAccount, newAgentKey, type TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { createItem, MISSING_ID, rowCounts, storedRow } from './fixtures';

const itemRoutes = (id: string): Array<[string, string, unknown?]> => [
  ['GET', `/api/marketing/content/${id}`],
  ['PUT', `/api/marketing/content/${id}`, { title: 'Taken over' }],
  ['DELETE', `/api/marketing/content/${id}`],
  ['GET', `/api/marketing/content/${id}/versions`],
];
const agentItemRoutes = (id: string): Array<[string, string, unknown?]> => [
  ['GET', `/api/agent/marketing/content/${id}`],
  ['PATCH', `/api/agent/marketing/content/${id}`, { title: 'Taken over' }],
  ['DELETE', `/api/agent/marketing/content/${id}`],
  ['GET', `/api/agent/marketing/content/${id}/versions`],
  ['POST', `/api/agent/marketing/content/${id}/schedule`, { scheduled_publish_at: '2099-01-01T00:00:00Z' }],
  ['DELETE', `/api/agent/marketing/content/${id}/schedule`],
];

describe('content access', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  it('an item of another account answers 404 content_not_found on every item route and is left untouched', async () => {
    const foreign = await createItem(other.ownerToken, { title: 'Not yours' });
    for (const [token, routes] of [
      [acct.ownerToken, itemRoutes(foreign.id)],
      [acct.agentKey, agentItemRoutes(foreign.id)],
    ] as const) {
      for (const [method, path, body] of routes) {
        const res = await call(method, path, { token, body });
        assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
        assert.equal(res.body.code, 'content_not_found');
      }
    }
    const row = await storedRow(foreign.id);
    assert.equal(row.title, 'Not yours');
  });

  it('an unknown or a malformed id answers 404 content_not_found, never a 500', async () => {
    for (const id of [MISSING_ID, 'not-a-uuid', '123', 'ZZZZZZZZ-0000-4000-8000-000000000000']) {
      for (const [token, routes] of [
        [acct.ownerToken, itemRoutes(id)],
        [acct.agentKey, agentItemRoutes(id)],
      ] as const) {
        for (const [method, path, body] of routes) {
          const res = await call(method, path, { token, body });
          assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
          assert.equal(res.body.code, 'content_not_found');
        }
      }
    }
  });

  it('dashboard routes take a session and agent routes take an agent key', async () => {
    const item = await createItem(acct.ownerToken);
    const onDashboard = await call('GET', `/api/marketing/content/${item.id}`, { token: acct.agentKey });
    assert.equal(onDashboard.status, 401);
    const onAgent = await call('GET', `/api/agent/marketing/content/${item.id}`, { token: acct.ownerToken });
    assert.equal(onAgent.status, 401);
    assert.equal((await call('GET', '/api/marketing/content')).body.code, 'missing_credentials');
  });

  it('a read-only agent key reads items and versions but every write is 403 and writes nothing', async () => {
    const readOnly = await newAgentKey(
      acct.accountId,
      ['marketing.content:read', 'marketing.content:create', 'marketing.content:update'],
      true,
    );
    const item = await createItem(acct.ownerToken);
    for (const path of [
      '/api/agent/marketing/content',
      `/api/agent/marketing/content/${item.id}`,
      `/api/agent/marketing/content/${item.id}/versions`,
    ]) {
      assert.equal((await call('GET', path, { token: readOnly })).status, 200, path);
    }
    const counts = await rowCounts(acct.accountId);
    for (const [method, path, body] of [
      ['POST', '/api/agent/marketing/content', { title: 'No' }],
      ['PATCH', `/api/agent/marketing/content/${item.id}`, { title: 'No' }],
      ['DELETE', `/api/agent/marketing/content/${item.id}`, undefined],
    ] as const) {
      const res = await call(method, path, { token: readOnly, body });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.code, 'read_only_key');
    }
    assert.deepEqual(await rowCounts(acct.accountId), counts);
    assert.equal((await storedRow(item.id)).title, item.title);
  });

  it('reads need marketing.content read, create needs create, PATCH and DELETE need update', async () => {
    const createOnly = await newAgentKey(acct.accountId, ['marketing.content:create']);
    const readOnlyPerm = await newAgentKey(acct.accountId, ['marketing.content:read']);
    const created = await call('POST', '/api/agent/marketing/content', { token: createOnly, body: { title: 'By create key' } });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id;
    const denied: Array<[string, string, string, unknown?]> = [
      [createOnly, 'GET', '/api/agent/marketing/content'],
      [createOnly, 'GET', `/api/agent/marketing/content/${id}`],
      [createOnly, 'GET', `/api/agent/marketing/content/${id}/versions`],
      [createOnly, 'PATCH', `/api/agent/marketing/content/${id}`, { title: 'x' }],
      [createOnly, 'DELETE', `/api/agent/marketing/content/${id}`],
      [readOnlyPerm, 'POST', '/api/agent/marketing/content', { title: 'x' }],
      [readOnlyPerm, 'PATCH', `/api/agent/marketing/content/${id}`, { title: 'x' }],
    ];
    for (const [token, method, path, body] of denied) {
      const res = await call(method, path, { token, body });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.code, 'missing_permission');
    }
  });

  it('DELETE answers 204 and the item is gone (dashboard and agent)', async () => {
    for (const [token, prefix] of [
      [acct.ownerToken, '/api'],
      [acct.agentKey, '/api/agent'],
    ] as const) {
      const item = await createItem(acct.ownerToken);
      const del = await call('DELETE', `${prefix}/marketing/content/${item.id}`, { token });
      assert.equal(del.status, 204, del.text);
      assert.equal((await call('GET', `/api/marketing/content/${item.id}`, { token: acct.ownerToken })).status, 404);
      assert.equal((await call('DELETE', `${prefix}/marketing/content/${item.id}`, { token })).body.code, 'content_not_found');
    }
  });

  it('literal paths beside {id} are ordered first, so GET /api/marketing/content/calendar is not taken by the item route', () => {
    const all = literalPathsFirst(apiRoutes(() => []));
    const position = (method: string, path: string) => all.findIndex((r) => r.spec.method === method && r.spec.path === path);
    const itemGet = position('get', '/api/marketing/content/{id}');
    assert.ok(itemGet >= 0);
    const literals = all.filter((r) => r.spec.method === 'get' && /^\/api(\/agent)?\/marketing\/content\/[a-z-]+$/.test(r.spec.path));
    for (const r of literals) {
      const itemPath = r.spec.path.startsWith('/api/agent') ? '/api/agent/marketing/content/{contentId}' : '/api/marketing/content/{id}';
      assert.ok(position('get', r.spec.path) < position('get', itemPath), `${r.spec.path} is registered after ${itemPath}`);
    }
  });

  it('GET /api/marketing/content/calendar (mounted by the calendar area) is not answered content_not_found', async () => {
    const res = await call('GET', '/api/marketing/content/calendar', { token: acct.ownerToken });
    assert.notEqual(res.body?.code, 'content_not_found', res.text);
  });

  it('through the real router, a literal sibling listed after the item routes still gets its requests', async () => {
    const literal: RouteDef = route(
      {
        method: 'get',
        path: '/api/marketing/content/literal-probe',
        operationId: 'probe',
        summary: 'probe',
        tags: ['test'],
        auth: { kind: 'none' },
        responses: { 200: { description: 'ok', schema: z.object({ probe: z.literal(true) }) } },
      },
      async () => ({ body: { probe: true as const } }),
    );
    const deps = harness().deps;
    const app = new Koa();
    const router = new Router();
    mountRoutes(router, [...contentRoutes(), literal], deps, routeAuth);
    app.use(errorMiddleware(deps.logger));
    app.use(router.routes());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      assert.deepEqual((await callAt(base, 'GET', '/api/marketing/content/literal-probe')).body, { probe: true });
      const item = await callAt(base, 'GET', '/api/marketing/content/not-a-uuid', { token: acct.ownerToken });
      assert.equal(item.body.code, 'content_not_found');
    } finally {
      server.close();
    }
  });
});
