import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openRevalidationSecret } from '../../src/projects/deployments/secret';
import { newAccount, newAgentKey, newUser, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { newProjectId } from '../helpers/projects';

const path = (projectId: string, rest = '') => `/api/projects/${projectId}/deployments${rest}`;
const create = (token: string, projectId: string, body: Record<string, unknown>) => call('POST', path(projectId), { token, body });

async function serviceHosted(account: TestAccount): Promise<string> {
  return newProjectId(account.accountId, { kind: 'service_hosted', name: 'Storefront' });
}

async function created(account: TestAccount, projectId: string, environment = 'production', baseUrl = 'https://shop.example.com') {
  const res = await create(account.ownerToken, projectId, { environment, base_url: baseUrl });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: string; secret: string; secret_hint: string; [k: string]: unknown };
}

const storedRow = (id: string) => harness().db('project_deployments').where({ id }).first();

describe('project deployments', () => {
  let owner: TestAccount;
  before(async () => {
    owner = await newAccount('Deploy Co');
  });

  it('the revalidation secret is answered once on create (wyrv_…) and stored only sealed', async () => {
    const projectId = await serviceHosted(owner);
    const body = await created(owner, projectId);
    assert.match(body.secret, /^wyrv_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(
      [body.object, body.project_id, body.environment, body.base_url, body.last_revalidation_outcome],
      ['project_deployment', projectId, 'production', 'https://shop.example.com', null],
    );
    assert.equal(body.secret_hint, `wyrv_…${body.secret.slice(-4)}`);

    const read = await call('GET', path(projectId, `/${body.id}`), { token: owner.ownerToken });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.secret, undefined);
    assert.ok(!read.text.includes(body.secret));
    const list = await call('GET', path(projectId), { token: owner.ownerToken });
    assert.ok(!list.text.includes(body.secret));

    const row = await storedRow(body.id);
    assert.match(row.secret_enc, /^v1:[^:]+:[^:]+:[^:]+$/);
    assert.ok(!row.secret_enc.includes(body.secret.slice(5)));
    assert.equal(openRevalidationSecret(harness().deps.secretHashKey, row.secret_enc), body.secret);
  });

  it('rotate-secret answers a new secret once and the stored one is replaced', async () => {
    const projectId = await serviceHosted(owner);
    const first = await created(owner, projectId);
    const res = await call('POST', path(projectId, `/${first.id}/rotate-secret`), { token: owner.ownerToken });
    assert.equal(res.status, 200, res.text);
    assert.match(res.body.secret, /^wyrv_/);
    assert.notEqual(res.body.secret, first.secret);
    assert.equal(openRevalidationSecret(harness().deps.secretHashKey, (await storedRow(first.id)).secret_enc), res.body.secret);
  });

  it('one deployment per environment: a second one in the same environment is 409 deployment_environment_taken', async () => {
    const projectId = await serviceHosted(owner);
    await created(owner, projectId, 'production');
    const again = await create(owner.ownerToken, projectId, { environment: 'production', base_url: 'https://other.example.com' });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.code, 'deployment_environment_taken');
  });

  it('lists production first; PATCH changes base_url (trailing slash dropped) and keeps the secret; DELETE removes it', async () => {
    const projectId = await serviceHosted(owner);
    const dev = await created(owner, projectId, 'dev', 'https://dev.example.com');
    const prod = await created(owner, projectId, 'production', 'https://www.example.com');
    const staging = await created(owner, projectId, 'staging', 'https://staging.example.com');
    const list = await call('GET', path(projectId), { token: owner.ownerToken });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.data.map((d: any) => d.id),
      [prod.id, staging.id, dev.id],
    );

    const sealedBefore = (await storedRow(prod.id)).secret_enc;
    const patched = await call('PATCH', path(projectId, `/${prod.id}`), {
      token: owner.ownerToken,
      body: { base_url: 'https://shop.example.com/store/' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.base_url, 'https://shop.example.com/store');
    assert.equal((await storedRow(prod.id)).secret_enc, sealedBefore);

    const removed = await call('DELETE', path(projectId, `/${dev.id}`), { token: owner.ownerToken });
    assert.equal(removed.status, 204, removed.text);
    const gone = await call('GET', path(projectId, `/${dev.id}`), { token: owner.ownerToken });
    assert.deepEqual([gone.status, gone.body.code], [404, 'deployment_not_found']);
    const malformed = await call('GET', path(projectId, '/not-a-uuid'), { token: owner.ownerToken });
    assert.deepEqual([malformed.status, malformed.body.code], [404, 'deployment_not_found']);
  });

  it('base_url must be https on a public host, without credentials, query or fragment (400 validation_failed on body.base_url)', async () => {
    const projectId = await serviceHosted(owner);
    for (const base_url of [
      'http://shop.example.com',
      'ftp://shop.example.com',
      'https://user:pw@shop.example.com',
      'https://shop.example.com/?x=1',
      'https://shop.example.com/#top',
      'https://127.0.0.1',
      'https://localhost:3000',
      'https://10.0.0.8',
      'https://[::1]',
      'not a url',
    ]) {
      const res = await create(owner.ownerToken, projectId, { environment: 'staging', base_url });
      assert.equal(res.status, 400, `${base_url}: ${res.text}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.deepEqual(
        res.body.errors.map((e: any) => e.path),
        ['body.base_url'],
        base_url,
      );
    }
  });

  it('only a service-hosted project has deployments: a platform-hosted one is 409 project_not_service_hosted', async () => {
    const projectId = await newProjectId(owner.accountId, { kind: 'platform_hosted' });
    const res = await create(owner.ownerToken, projectId, { environment: 'production', base_url: 'https://shop.example.com' });
    assert.deepEqual([res.status, res.body.code], [409, 'project_not_service_hosted']);
    const list = await call('GET', path(projectId), { token: owner.ownerToken });
    assert.deepEqual([list.status, list.body.code], [409, 'project_not_service_hosted']);
  });

  it('members read; only an owner or admin writes (403 forbidden_role)', async () => {
    const projectId = await serviceHosted(owner);
    const deployment = await created(owner, projectId);
    const member = await newUser(owner.accountId, 'member');
    const admin = await newUser(owner.accountId, 'admin');
    assert.equal((await call('GET', path(projectId), { token: member.token })).status, 200);
    assert.equal((await call('GET', path(projectId, `/${deployment.id}`), { token: member.token })).status, 200);
    const writes = [
      () => create(member.token, projectId, { environment: 'dev', base_url: 'https://dev.example.com' }),
      () => call('PATCH', path(projectId, `/${deployment.id}`), { token: member.token, body: { base_url: 'https://x.example.com' } }),
      () => call('POST', path(projectId, `/${deployment.id}/rotate-secret`), { token: member.token }),
      () => call('DELETE', path(projectId, `/${deployment.id}`), { token: member.token }),
    ];
    for (const write of writes) {
      const res = await write();
      assert.deepEqual([res.status, res.body.code], [403, 'forbidden_role']);
    }
    assert.equal((await create(admin.token, projectId, { environment: 'dev', base_url: 'https://dev.example.com' })).status, 201);
  });

  it('agent twins: projects:read reads, projects:write writes, a read-only key only reads', async () => {
    const projectId = await serviceHosted(owner);
    const reader = await newAgentKey(owner.accountId, ['projects:read']);
    const writer = await newAgentKey(owner.accountId, ['projects:read', 'projects:write']);
    const readOnly = await newAgentKey(owner.accountId, ['projects:read', 'projects:write'], true);
    const agentPath = `/api/agent/projects/${projectId}/deployments`;
    const made = await call('POST', agentPath, {
      token: writer,
      body: { environment: 'production', base_url: 'https://shop.example.com' },
    });
    assert.equal(made.status, 201, made.text);
    assert.match(made.body.secret, /^wyrv_/);
    assert.equal((await call('GET', `${agentPath}/${made.body.id}`, { token: reader })).status, 200);
    const denied = await call('POST', agentPath, { token: reader, body: { environment: 'dev', base_url: 'https://dev.example.com' } });
    assert.deepEqual([denied.status, denied.body.code], [403, 'missing_permission']);
    const readOnlyWrite = await call('POST', `${agentPath}/${made.body.id}/rotate-secret`, { token: readOnly });
    assert.deepEqual([readOnlyWrite.status, readOnlyWrite.body.code], [403, 'read_only_key']);
    const noPermission = await newAgentKey(owner.accountId, ['crm:read']);
    assert.equal((await call('GET', agentPath, { token: noPermission })).status, 403);
  });

  it("another account's project answers 404 project_not_found on every deployment route, and nothing changes", async () => {
    const projectId = await serviceHosted(owner);
    const deployment = await created(owner, projectId);
    const stranger = await newAccount('Stranger Co');
    const strangerKey = await newAgentKey(stranger.accountId, ['projects:read', 'projects:write']);
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', path(projectId)],
      ['POST', path(projectId), { environment: 'staging', base_url: 'https://shop.example.com' }],
      ['GET', path(projectId, `/${deployment.id}`)],
      ['PATCH', path(projectId, `/${deployment.id}`), { base_url: 'https://evil.example.com' }],
      ['POST', path(projectId, `/${deployment.id}/rotate-secret`)],
      ['DELETE', path(projectId, `/${deployment.id}`)],
      ['GET', path(randomUUID())],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(method, url, { token: stranger.ownerToken, body });
      assert.deepEqual([res.status, res.body.code], [404, 'project_not_found'], `${method} ${url}`);
      const agent = await call(method, url.replace('/api/', '/api/agent/'), { token: strangerKey, body });
      assert.deepEqual([agent.status, agent.body.code], [404, 'project_not_found'], `agent ${method} ${url}`);
    }
    // The stranger's own project cannot reach the owner's deployment id either.
    const own = await serviceHosted(stranger);
    const cross = await call('GET', path(own, `/${deployment.id}`), { token: stranger.ownerToken });
    assert.deepEqual([cross.status, cross.body.code], [404, 'deployment_not_found']);
    const row = await storedRow(deployment.id);
    assert.equal(row.base_url, 'https://shop.example.com');
  });

  it('deleting the project deletes its deployments', async () => {
    const projectId = await serviceHosted(owner);
    const deployment = await created(owner, projectId);
    await harness().db('projects').where({ id: projectId }).delete();
    assert.equal(await storedRow(deployment.id), undefined);
  });
});
