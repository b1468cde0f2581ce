import assert from 'node:assert/strict';
import type { Permission } from '../../../src/auth/permissions';
import { call } from '../../helpers/http';
import { harness } from '../../helpers/harness';
import { newAccount, newAgentKey, newUser, type TestAccount } from '../../helpers/accounts';
import { assertError, createAvatar, createGrid, createJourney, MISSING_ID } from './fixtures';

const COLLECTIONS = ['avatars', 'journeys', 'before-after-grids'] as const;
type Collection = (typeof COLLECTIONS)[number];

const BODIES: Record<Collection, { create: Record<string, unknown>; patch: Record<string, unknown> }> = {
  avatars: { create: { name: 'Agent avatar', attributes: { role: 'Buyer' } }, patch: { name: 'Agent avatar 2' } },
  journeys: {
    create: { name: 'Agent journey', stages: [{ name: 'Awareness' }, { name: 'Decision' }] },
    patch: { stages: [{ name: 'Decision' }, { name: 'Awareness' }] },
  },
  'before-after-grids': {
    create: { name: 'Agent grid', results: [{ metric: 'Leads', before: 3, after: 9 }], testimonials: [{ quote: 'Great', consent: true }] },
    patch: { testimonials: [] },
  },
};

/** Every route of the three objects with the permission an agent key needs for it. */
const ROUTES: Array<{ method: string; path: (c: Collection) => string; permission: Permission }> = [
  { method: 'GET', path: (c) => `/marketing/${c}`, permission: 'marketing.content:read' },
  { method: 'POST', path: (c) => `/marketing/${c}`, permission: 'marketing.content:create' },
  { method: 'GET', path: (c) => `/marketing/${c}/${MISSING_ID}`, permission: 'marketing.content:read' },
  { method: 'PATCH', path: (c) => `/marketing/${c}/${MISSING_ID}`, permission: 'marketing.content:update' },
  { method: 'DELETE', path: (c) => `/marketing/${c}/${MISSING_ID}`, permission: 'marketing.content:update' },
];
const bodyFor = (method: string, c: Collection) =>
  method === 'POST' ? BODIES[c].create : method === 'PATCH' ? BODIES[c].patch : undefined;
const isWrite = (method: string) => method !== 'GET';

describe('Grounding objects: auth and agent twins', () => {
  let acct: TestAccount;
  let other: TestAccount;
  before(async () => {
    [acct, other] = await Promise.all([newAccount(), newAccount('Other Co')]);
  });

  for (const c of COLLECTIONS) {
    it(`an agent key with the content permissions creates, reads, lists, updates and deletes ${c} through /api/agent/marketing/${c}`, async () => {
      const key = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:create', 'marketing.content:update']);
      const created = await call('POST', `/api/agent/marketing/${c}`, { token: key, body: BODIES[c].create });
      assert.equal(created.status, 201, created.text);
      const got = await call('GET', `/api/agent/marketing/${c}/${created.body.id}`, { token: key });
      assert.deepEqual(got.body, created.body);
      const dashboard = await call('GET', `/api/marketing/${c}/${created.body.id}`, { token: acct.ownerToken });
      assert.deepEqual(dashboard.body, created.body);
      const listed = await call('GET', `/api/agent/marketing/${c}`, { token: key });
      assert.ok(listed.body.data.some((o: { id: string }) => o.id === created.body.id));
      const patched = await call('PATCH', `/api/agent/marketing/${c}/${created.body.id}`, { token: key, body: BODIES[c].patch });
      assert.equal(patched.status, 200, patched.text);
      assert.equal((await call('DELETE', `/api/agent/marketing/${c}/${created.body.id}`, { token: key })).status, 204);
      assert.equal((await call('GET', `/api/marketing/${c}/${created.body.id}`, { token: acct.ownerToken })).status, 404);
    });
  }

  it('an agent key without marketing permissions answers 403 missing_permission on every agent route', async () => {
    const key = await newAgentKey(acct.accountId, ['crm:read', 'crm:write']);
    for (const c of COLLECTIONS) {
      for (const { method, path } of ROUTES) {
        assertError(await call(method, `/api/agent${path(c)}`, { token: key, body: bodyFor(method, c) }), 403, 'missing_permission');
      }
    }
  });

  it('each route needs its own permission: read for list and get, create for POST, update for PATCH and DELETE', async () => {
    for (const held of ['marketing.content:read', 'marketing.content:create', 'marketing.content:update'] as Permission[]) {
      const key = await newAgentKey(acct.accountId, [held]);
      for (const c of COLLECTIONS) {
        for (const { method, path, permission } of ROUTES) {
          const res = await call(method, `/api/agent${path(c)}`, { token: key, body: bodyFor(method, c) });
          if (permission === held) assert.notEqual(res.status, 403, `${held} ${method} ${path(c)}: ${res.text}`);
          else assertError(res, 403, 'missing_permission');
        }
      }
    }
  });

  it('a read-only agent key reads but answers 403 read_only_key on every write, and nothing is written', async () => {
    const key = await newAgentKey(acct.accountId, ['marketing.content:read', 'marketing.content:create', 'marketing.content:update'], true);
    const avatar = await createAvatar(acct.ownerToken, { name: 'Read only target' });
    for (const c of COLLECTIONS) {
      for (const { method, path } of ROUTES) {
        const res = await call(method, `/api/agent${path(c)}`, { token: key, body: bodyFor(method, c) });
        if (isWrite(method)) assertError(res, 403, 'read_only_key');
        else assert.notEqual(res.status, 403, res.text);
      }
    }
    const got = await call('GET', `/api/agent/marketing/avatars/${avatar.id}`, { token: key });
    assert.equal(got.body.name, 'Read only target');
    assertError(
      await call('PATCH', `/api/agent/marketing/avatars/${avatar.id}`, { token: key, body: { name: 'Changed' } }),
      403,
      'read_only_key',
    );
    assertError(await call('DELETE', `/api/agent/marketing/avatars/${avatar.id}`, { token: key }), 403, 'read_only_key');
    assert.equal((await call('GET', `/api/marketing/avatars/${avatar.id}`, { token: acct.ownerToken })).body.name, 'Read only target');
  });

  it("an agent key of another account gets 404 for this account's objects and never lists them", async () => {
    const [avatar, journey, grid] = await Promise.all([
      createAvatar(acct.ownerToken),
      createJourney(acct.ownerToken),
      createGrid(acct.ownerToken),
    ]);
    const theirKey = other.agentKey;
    const cases: Array<[Collection, string, string]> = [
      ['avatars', avatar.id, 'avatar_not_found'],
      ['journeys', journey.id, 'journey_not_found'],
      ['before-after-grids', grid.id, 'grid_not_found'],
    ];
    for (const [c, id, code] of cases) {
      assertError(await call('GET', `/api/agent/marketing/${c}/${id}`, { token: theirKey }), 404, code);
      assertError(await call('PATCH', `/api/agent/marketing/${c}/${id}`, { token: theirKey, body: BODIES[c].patch }), 404, code);
      assertError(await call('DELETE', `/api/agent/marketing/${c}/${id}`, { token: theirKey }), 404, code);
      const listed = await call('GET', `/api/agent/marketing/${c}?limit=100`, { token: theirKey });
      assert.ok(!listed.body.data.some((o: { id: string }) => o.id === id));
    }
  });

  it('dashboard routes need a session (an agent key is 401) and agent routes an agent key (a session is 401)', async () => {
    for (const c of COLLECTIONS) {
      for (const { method, path } of ROUTES) {
        const body = bodyFor(method, c);
        assertError(await call(method, `/api${path(c)}`, { body }), 401, 'missing_credentials');
        assertError(await call(method, `/api${path(c)}`, { token: acct.agentKey, body }), 401, 'wrong_credential_kind');
        assertError(await call(method, `/api/agent${path(c)}`, { token: acct.ownerToken, body }), 401, 'wrong_credential_kind');
      }
    }
  });

  it('a member-role user can use every dashboard route', async () => {
    const { token } = await newUser(acct.accountId, 'member');
    for (const c of COLLECTIONS) {
      const created = await call('POST', `/api/marketing/${c}`, { token, body: BODIES[c].create });
      assert.equal(created.status, 201, created.text);
      assert.equal((await call('GET', `/api/marketing/${c}`, { token })).status, 200);
      assert.equal((await call('GET', `/api/marketing/${c}/${created.body.id}`, { token })).status, 200);
      assert.equal((await call('PATCH', `/api/marketing/${c}/${created.body.id}`, { token, body: BODIES[c].patch })).status, 200);
      assert.equal((await call('DELETE', `/api/marketing/${c}/${created.body.id}`, { token })).status, 204);
    }
  });

  it('POST honours Idempotency-Key: a retry answers the first object and writes no second one', async () => {
    const headers = { 'idempotency-key': `avatar-${Date.now()}` };
    const first = await call('POST', '/api/marketing/avatars', { token: acct.ownerToken, body: { name: 'Once' }, headers });
    const retry = await call('POST', '/api/marketing/avatars', { token: acct.ownerToken, body: { name: 'Once' }, headers });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual([retry.status, retry.body.id], [201, first.body.id]);
    const stored = await harness().db('customer_avatars').where({ account_id: acct.accountId, name: 'Once' }).count({ n: '*' });
    assert.equal(Number(stored[0].n), 1);
  });

  it('the OpenAPI document lists every route twice: session auth under /api and agent-key auth under /api/agent', async () => {
    const doc = (await call('GET', '/openapi.json')).body;
    for (const c of COLLECTIONS) {
      for (const { method, path } of ROUTES) {
        const p = path(c).replace(MISSING_ID, '{id}');
        assert.deepEqual(doc.paths[`/api${p}`]?.[method.toLowerCase()]?.security, [{ sessionToken: [] }], `${method} /api${p}`);
        assert.deepEqual(doc.paths[`/api/agent${p}`]?.[method.toLowerCase()]?.security, [{ agentKey: [] }], `${method} /api/agent${p}`);
      }
    }
  });
});
