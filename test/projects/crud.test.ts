import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { newProjectId } from '../helpers/projects';

const fieldErrorPaths = (res: { body: any }) => (res.body?.errors ?? []).map((e: { path: string }) => e.path);

describe('Projects: create, read, list, change, delete', () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount();
  });

  const create = (body: unknown, token = acct.ownerToken, headers?: Record<string, string>) =>
    call('POST', '/api/projects', { token, body, headers });

  it('creating a project answers 201 with its fields; the host is lowercased and it starts on the native CMS', async () => {
    const res = await create({ name: ' Main site ', host: 'WWW.Example.COM', kind: 'service_hosted' });
    assert.equal(res.status, 201, res.text);
    const p = res.body;
    assert.match(p.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { name: p.name, host: p.host, kind: p.kind, content_source: p.content_source },
      { name: 'Main site', host: 'www.example.com', kind: 'service_hosted', content_source: 'native' },
    );
    assert.ok(!Number.isNaN(Date.parse(p.created_at)) && !Number.isNaN(Date.parse(p.updated_at)));
    const read = await call('GET', `/api/projects/${p.id}`, { token: acct.ownerToken });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, p);
  });

  it('a project without host has host null', async () => {
    const res = await create({ name: 'No host', kind: 'platform_hosted' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.host, null);
  });

  it('name must be 1-200 characters', async () => {
    for (const name of ['', '   ', 'x'.repeat(201)]) {
      const res = await create({ name, kind: 'service_hosted' });
      assert.equal(res.status, 400, name);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(fieldErrorPaths(res), ['body.name']);
    }
    assert.equal((await create({ name: 'x'.repeat(200), kind: 'service_hosted' })).status, 201);
  });

  it('host must be a bare hostname: no scheme, path, port or single label', async () => {
    for (const host of [
      'https://example.com',
      'example.com/blog',
      'example.com:8080',
      'localhost',
      'exa mple.com',
      '-bad.example.com',
      'example.com.',
    ]) {
      const res = await create({ name: 'Bad host', host, kind: 'service_hosted' });
      assert.equal(res.status, 400, host);
      assert.deepEqual(fieldErrorPaths(res), ['body.host'], host);
    }
  });

  it('kind must be service_hosted or platform_hosted, and is required', async () => {
    assert.deepEqual(fieldErrorPaths(await create({ name: 'A', kind: 'other' })), ['body.kind']);
    assert.deepEqual(fieldErrorPaths(await create({ name: 'A' })), ['body.kind']);
  });

  it('content_source cannot be sent on create or PATCH (project_cms_provider_set switches it)', async () => {
    const created = await create({ name: 'A', kind: 'platform_hosted', content_source: 'site_platform' });
    assert.equal(created.status, 400);
    const id = await newProjectId(acct.accountId);
    const patched = await call('PATCH', `/api/projects/${id}`, { token: acct.ownerToken, body: { content_source: 'site_platform' } });
    assert.equal(patched.status, 400);
    assert.equal(patched.body.code, 'validation_failed');
    const read = await call('GET', `/api/projects/${id}`, { token: acct.ownerToken });
    assert.equal(read.body.content_source, 'native');
  });

  it('create honours Idempotency-Key: a retry replays the same project', async () => {
    const key = randomUUID();
    const first = await create({ name: 'Once', kind: 'service_hosted' }, acct.ownerToken, { 'idempotency-key': key });
    const again = await create({ name: 'Once', kind: 'service_hosted' }, acct.ownerToken, { 'idempotency-key': key });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const reused = await create({ name: 'Other', kind: 'service_hosted' }, acct.ownerToken, { 'idempotency-key': key });
    assert.equal(reused.status, 409);
    assert.equal(reused.body.code, 'idempotency_key_reused');
  });

  it('PATCH changes name, host and kind; absent fields stay; host null clears; an empty body changes nothing', async () => {
    const id = (await create({ name: 'Before', host: 'a.example.com', kind: 'service_hosted' })).body.id;
    const renamed = await call('PATCH', `/api/projects/${id}`, { token: acct.ownerToken, body: { name: 'After' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.deepEqual([renamed.body.name, renamed.body.host, renamed.body.kind], ['After', 'a.example.com', 'service_hosted']);
    const cleared = await call('PATCH', `/api/projects/${id}`, { token: acct.ownerToken, body: { host: null, kind: 'platform_hosted' } });
    assert.deepEqual([cleared.body.host, cleared.body.kind], [null, 'platform_hosted']);
    const empty = await call('PATCH', `/api/projects/${id}`, { token: acct.ownerToken, body: {} });
    assert.equal(empty.status, 200);
    assert.equal(empty.body.updated_at, cleared.body.updated_at);
    const bad = await call('PATCH', `/api/projects/${id}`, { token: acct.ownerToken, body: { host: 'http://x.example.com' } });
    assert.deepEqual(fieldErrorPaths(bad), ['body.host']);
  });

  it('a malformed or unknown id answers 404 project_not_found on read, PATCH and DELETE', async () => {
    for (const id of ['not-a-uuid', randomUUID()]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(method, `/api/projects/${id}`, { token: acct.ownerToken, body });
        assert.equal(res.status, 404, `${method} ${id}`);
        assert.equal(res.body.code, 'project_not_found');
      }
    }
  });

  it('the list is { data, total, page, limit }, newest first, paged by page and limit', async () => {
    const own = await newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await create({ name: `P${i}`, kind: 'service_hosted' }, own.ownerToken)).body.id);
    const all = await call('GET', '/api/projects', { token: own.ownerToken });
    assert.equal(all.status, 200);
    assert.deepEqual({ total: all.body.total, page: all.body.page, limit: all.body.limit }, { total: 3, page: 1, limit: 25 });
    assert.deepEqual(
      all.body.data.map((p: { id: string }) => p.id),
      [...ids].reverse(),
    );
    const second = await call('GET', '/api/projects?page=2&limit=2', { token: own.ownerToken });
    assert.deepEqual(
      { total: second.body.total, page: second.body.page, limit: second.body.limit, n: second.body.data.length },
      { total: 3, page: 2, limit: 2, n: 1 },
    );
    assert.equal(second.body.data[0].id, ids[0]);
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x', 'other=1']) {
      const res = await call('GET', `/api/projects?${q}`, { token: own.ownerToken });
      assert.equal(res.status, 400, q);
    }
  });

  it('DELETE answers 204 and removes the project with its binding, content source and commerce settings (cascade)', async () => {
    const { db } = harness();
    const id = await newProjectId(acct.accountId);
    await db('site_platform_project_bindings').insert({ account_id: acct.accountId, project_id: id, override_mode: 'disabled' });
    await db('site_platform_content_sources').insert({ account_id: acct.accountId, project_id: id, site_id: 'site-x' });
    await db('project_commerce_settings').insert({ account_id: acct.accountId, project_id: id, override_mode: 'disabled' });
    const res = await call('DELETE', `/api/projects/${id}`, { token: acct.ownerToken });
    assert.equal(res.status, 204, res.text);
    assert.equal((await call('GET', `/api/projects/${id}`, { token: acct.ownerToken })).status, 404);
    for (const table of ['site_platform_project_bindings', 'site_platform_content_sources', 'project_commerce_settings']) {
      assert.equal((await db(table).where({ project_id: id })).length, 0, table);
    }
    assert.equal((await call('DELETE', `/api/projects/${id}`, { token: acct.ownerToken })).status, 404);
  });

  it('DELETE is refused with 409 project_in_use while a content item links to the project, and deletes nothing', async () => {
    const { db } = harness();
    const id = await newProjectId(acct.accountId);
    const [item] = await db('content_items')
      .insert({
        account_id: acct.accountId,
        title: 'Linked',
        cms_link: JSON.stringify({ project_id: id, collection_id: 'c', item_id: null }),
      })
      .returning('id');
    const refused = await call('DELETE', `/api/projects/${id}`, { token: acct.ownerToken });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'project_in_use');
    assert.equal((await call('GET', `/api/projects/${id}`, { token: acct.ownerToken })).status, 200);
    await db('content_items').where({ id: item.id }).update({ cms_link: null });
    assert.equal((await call('DELETE', `/api/projects/${id}`, { token: acct.ownerToken })).status, 204);
  });

  it("a content item cannot link to another account's project, even written below the API (the link carries a foreign key)", async () => {
    const { db } = harness();
    const other = await newAccount('Other Co');
    const foreign = await newProjectId(other.accountId);
    await assert.rejects(
      db('content_items').insert({
        account_id: acct.accountId,
        title: 'Foreign link',
        cms_link: JSON.stringify({ project_id: foreign, collection_id: 'c', item_id: null }),
      }),
      (err: { code?: string; constraint?: string }) => err.code === '23503' && err.constraint === 'content_items_cms_project_fk',
    );
  });
});
