import assert from 'node:assert/strict';
import { newAccount, newAgentKey, newUser, type TestAccount } from '../helpers/accounts';
import { call } from '../helpers/http';
import { newProjectId } from '../helpers/projects';

describe('Projects: roles and agent permissions', () => {
  let acct: TestAccount;
  let projectId: string;
  before(async () => {
    acct = await newAccount();
    projectId = await newProjectId(acct.accountId);
  });

  const writes = (prefix: string) =>
    [
      ['POST', `${prefix}/projects`, { name: 'New', kind: 'service_hosted' }],
      ['PATCH', `${prefix}/projects/${projectId}`, { name: 'Renamed' }],
      ['DELETE', `${prefix}/projects/${projectId}`, undefined],
    ] as const;
  const reads = (prefix: string) => [`${prefix}/projects`, `${prefix}/projects/${projectId}`];

  it('a member reads projects but cannot create, change or delete them (403 forbidden_role)', async () => {
    const member = await newUser(acct.accountId, 'member');
    for (const path of reads('/api')) assert.equal((await call('GET', path, { token: member.token })).status, 200, path);
    for (const [method, path, body] of writes('/api')) {
      const res = await call(method, path, { token: member.token, body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'forbidden_role');
    }
  });

  it('an admin writes projects', async () => {
    const admin = await newUser(acct.accountId, 'admin');
    const res = await call('POST', '/api/projects', { token: admin.token, body: { name: 'By admin', kind: 'platform_hosted' } });
    assert.equal(res.status, 201, res.text);
    assert.equal((await call('PATCH', `/api/projects/${res.body.id}`, { token: admin.token, body: { name: 'Still admin' } })).status, 200);
  });

  it('the agent twins need projects:read to read and projects:write to write', async () => {
    const reader = await newAgentKey(acct.accountId, ['projects:read']);
    const none = await newAgentKey(acct.accountId, ['crm:read']);
    for (const path of reads('/api/agent')) {
      assert.equal((await call('GET', path, { token: reader })).status, 200, path);
      const refused = await call('GET', path, { token: none });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'missing_permission');
    }
    for (const [method, path, body] of writes('/api/agent')) {
      const res = await call(method, path, { token: reader, body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'missing_permission');
    }
    const writer = await newAgentKey(acct.accountId, ['projects:write']);
    const made = await call('POST', '/api/agent/projects', { token: writer, body: { name: 'By agent', kind: 'service_hosted' } });
    assert.equal(made.status, 201, made.text);
    assert.equal(
      (await call('PATCH', `/api/agent/projects/${made.body.id}`, { token: writer, body: { host: 'agent.example.com' } })).body.host,
      'agent.example.com',
    );
    assert.equal((await call('DELETE', `/api/agent/projects/${made.body.id}`, { token: writer })).status, 204);
  });

  it('a read-only key with projects:write only reads (403 read_only_key)', async () => {
    const readOnly = await newAgentKey(acct.accountId, ['projects:read', 'projects:write'], true);
    assert.equal((await call('GET', '/api/agent/projects', { token: readOnly })).status, 200);
    const res = await call('POST', '/api/agent/projects', { token: readOnly, body: { name: 'No', kind: 'service_hosted' } });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'read_only_key');
  });
});
