import assert from 'node:assert/strict';
import { newAccount, newAgentKey, newUser, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { newProjectId } from '../helpers/projects';

/** A project names its site in the web-analytics collector (`analytics_site_id`), set and cleared by PATCH. */
describe("Projects: the project's analytics site id", () => {
  let acct: TestAccount;
  before(async () => {
    acct = await newAccount();
  });

  const patch = (id: string, body: unknown, token = acct.ownerToken, prefix = '/api') =>
    call('PATCH', `${prefix}/projects/${id}`, { token, body });

  it('a new project has analytics_site_id null; PATCH sets it (trimmed), GET and the list show it, null or "" clears it', async () => {
    const created = await call('POST', '/api/projects', { token: acct.ownerToken, body: { name: 'Site', kind: 'service_hosted' } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.analytics_site_id, null);
    const id = created.body.id;

    const set = await patch(id, { analytics_site_id: '  blog.example.com ' });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.body.analytics_site_id, 'blog.example.com');
    assert.equal((await call('GET', `/api/projects/${id}`, { token: acct.ownerToken })).body.analytics_site_id, 'blog.example.com');
    const listed = await call('GET', '/api/projects?limit=100', { token: acct.ownerToken });
    assert.equal(listed.body.data.find((p: any) => p.id === id).analytics_site_id, 'blog.example.com');

    assert.equal((await patch(id, { name: 'Renamed' })).body.analytics_site_id, 'blog.example.com', 'absent stays');
    assert.equal((await patch(id, { analytics_site_id: null })).body.analytics_site_id, null);
    await patch(id, { analytics_site_id: 'x.example.com' });
    assert.equal((await patch(id, { analytics_site_id: '' })).body.analytics_site_id, null);
  });

  it('more than 255 characters, whitespace inside, or a non-string is 400 validation_failed and changes nothing', async () => {
    const id = await newProjectId(acct.accountId);
    await patch(id, { analytics_site_id: 'kept.example.com' });
    for (const value of ['a'.repeat(256), 'two words.example', 'tab\there', 42, ['a']]) {
      const res = await patch(id, { analytics_site_id: value });
      assert.equal(res.status, 400, `${JSON.stringify(value)}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(
        res.body.errors.map((e: { path: string }) => e.path),
        ['body.analytics_site_id'],
      );
    }
    assert.equal((await patch(id, { analytics_site_id: 'a'.repeat(255) })).status, 200);
    const row = await harness().deps.db('projects').where({ id }).first('analytics_site_id');
    assert.equal(row.analytics_site_id, 'a'.repeat(255));
  });

  it("another account's project answers 404 project_not_found and keeps its site id", async () => {
    const other = await newAccount('Other Co');
    const id = await newProjectId(other.accountId);
    await patch(id, { analytics_site_id: 'theirs.example.com' }, other.ownerToken);
    const res = await patch(id, { analytics_site_id: 'mine.example.com' });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'project_not_found');
    const row = await harness().deps.db('projects').where({ id }).first('analytics_site_id');
    assert.equal(row.analytics_site_id, 'theirs.example.com');
  });

  it('a member cannot set it (403 forbidden_role); the agent twin needs projects:write', async () => {
    const id = await newProjectId(acct.accountId);
    const member = await newUser(acct.accountId, 'member');
    const denied = await patch(id, { analytics_site_id: 'm.example.com' }, member.token);
    assert.equal(denied.status, 403);
    assert.equal(denied.body.code, 'forbidden_role');
    const reader = await newAgentKey(acct.accountId, ['projects:read']);
    assert.equal((await patch(id, { analytics_site_id: 'r.example.com' }, reader, '/api/agent')).status, 403);
    const writer = await newAgentKey(acct.accountId, ['projects:write']);
    const ok = await patch(id, { analytics_site_id: 'w.example.com' }, writer, '/api/agent');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.analytics_site_id, 'w.example.com');
  });

  it('the column is nullable text limited to 255 characters in the database too', async () => {
    const id = await newProjectId(acct.accountId);
    await assert.rejects(
      harness()
        .deps.db('projects')
        .where({ id })
        .update({ analytics_site_id: 'a'.repeat(256) }),
      /projects_analytics_site_id_length/,
    );
    await assert.rejects(
      harness().deps.db('projects').where({ id }).update({ analytics_site_id: '' }),
      /projects_analytics_site_id_length/,
    );
  });
});
