import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { route } from '../../src/http/route';
import { newAccount, newAgentKey, newUser, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';
import { emailKey } from '../email/send/kit';

const tags = ['Test'];
const responses = { 200: { description: 'ok', schema: z.object({ ok: z.literal(true) }) } };
const ok = async () => ({ body: { ok: true as const } });

/** Test-only routes, one per credential kind the product does not yet mount. */
const probeRoutes = () => [
  route(
    {
      method: 'get',
      path: '/test/crm-read',
      operationId: 'testCrmRead',
      summary: 'probe',
      tags,
      auth: { kind: 'agent', permission: 'crm:write' },
      responses,
    },
    ok,
  ),
  route(
    {
      method: 'post',
      path: '/test/crm-write',
      operationId: 'testCrmWrite',
      summary: 'probe',
      tags,
      auth: { kind: 'agent', permission: 'crm:write' },
      responses,
    },
    ok,
  ),
  route(
    {
      method: 'get',
      path: '/test/builder',
      operationId: 'testBuilder',
      summary: 'probe',
      tags,
      auth: { kind: 'agentSecret' },
      responses,
    },
    ok,
  ),
  route(
    {
      method: 'post',
      path: '/test/cron',
      operationId: 'testCron',
      summary: 'probe',
      tags,
      auth: { kind: 'cron' },
      responses,
    },
    ok,
  ),
];

/** A token of the right shape whose id no credential has. */
const unknownToken = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}${randomBytes(32).toString('base64url')}`;

function assertError(res: { status: number; body: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, code);
}

describe('authentication and authorization failures', () => {
  let account: TestAccount;
  let app: PrivateApp;
  let closedApp: PrivateApp;

  before(async () => {
    account = await newAccount();
    app = await startPrivateApp(probeRoutes());
    closedApp = await startPrivateApp(probeRoutes(), { config: { AGENT_SECRET: undefined, CRON_SECRET: undefined } });
  });
  after(async () => {
    await app?.close();
    await closedApp?.close();
  });

  it('a session route without a token answers 401 missing_credentials', async () => {
    assertError(await call('GET', '/api/me'), 401, 'missing_credentials');
  });

  it('an agent route without a token answers 401 missing_credentials', async () => {
    assertError(await call('GET', '/api/agent/me'), 401, 'missing_credentials');
  });

  it('a malformed bearer token answers 401 invalid_credentials', async () => {
    for (const token of ['garbage', 'wys_short', `wys_${'z'.repeat(32)}${'a'.repeat(43)}`]) {
      assertError(await call('GET', '/api/me', { token }), 401, 'invalid_credentials');
    }
    assertError(await call('GET', '/api/agent/me', { token: 'wyk_nope' }), 401, 'invalid_credentials');
  });

  it('a well-formed token that no credential has answers 401 invalid_credentials', async () => {
    assertError(await call('GET', '/api/me', { token: unknownToken('wys_') }), 401, 'invalid_credentials');
    assertError(await call('GET', '/api/agent/me', { token: unknownToken('wyk_') }), 401, 'invalid_credentials');
  });

  it('a real credential id with a wrong secret answers 401 invalid_credentials', async () => {
    const forged = account.ownerToken.slice(0, 4 + 32) + randomBytes(32).toString('base64url');
    assertError(await call('GET', '/api/me', { token: forged }), 401, 'invalid_credentials');
    const forgedKey = account.agentKey.slice(0, 4 + 32) + randomBytes(32).toString('base64url');
    assertError(await call('GET', '/api/agent/me', { token: forgedKey }), 401, 'invalid_credentials');
  });

  it('a revoked session token answers 401 invalid_credentials', async () => {
    const { token } = await newUser(account.accountId, 'member');
    assert.equal((await call('DELETE', '/api/session', { token })).status, 204);
    assertError(await call('GET', '/api/me', { token }), 401, 'invalid_credentials');
  });

  it('a revoked agent key answers 401 invalid_credentials', async () => {
    const key = await newAgentKey(account.accountId, ['crm:read']);
    const { body } = await call('GET', '/api/agent/me', { token: key });
    await call('DELETE', `/api/agent-keys/${body.key.id}`, { token: account.ownerToken });
    assertError(await call('GET', '/api/agent/me', { token: key }), 401, 'invalid_credentials');
  });

  it('a valid session token sent to an agent route answers 401 wrong_credential_kind naming the agent API key', async () => {
    const res = await call('GET', '/api/agent/me', { token: account.ownerToken });
    assertError(res, 401, 'wrong_credential_kind');
    assert.match(res.body.message, /takes an agent API key/);
    assert.match(res.body.message, /is a user session token/);
  });

  it('a valid agent key sent to a dashboard route answers 401 wrong_credential_kind naming the user session token', async () => {
    const res = await call('GET', '/api/me', { token: account.agentKey });
    assertError(res, 401, 'wrong_credential_kind');
    assert.match(res.body.message, /takes a user session token/);
    assert.match(res.body.message, /is an agent API key/);
  });

  it('a valid email API key on a dashboard or agent route, and a session token or agent key on an email route, answer 401 wrong_credential_kind', async () => {
    const { token: emailToken } = await emailKey(account.accountId, { environment: 'test' });
    const onDashboard = await call('GET', '/api/me', { token: emailToken });
    assertError(onDashboard, 401, 'wrong_credential_kind');
    assert.match(onDashboard.body.message, /is an email API key/);
    assertError(await call('GET', '/api/agent/me', { token: emailToken }), 401, 'wrong_credential_kind');
    for (const token of [account.ownerToken, account.agentKey]) {
      const onEmail = await call('POST', '/v1/email/send', { token, body: {} });
      assertError(onEmail, 401, 'wrong_credential_kind');
      assert.match(onEmail.body.message, /takes an email API key/);
    }
  });

  it('the cron secret on a dashboard route, and a session token on a cron route, answer 401 wrong_credential_kind', async () => {
    const cronSecret = harness().deps.config.CRON_SECRET!;
    const onDashboard = await call('GET', '/api/me', { token: cronSecret });
    assertError(onDashboard, 401, 'wrong_credential_kind');
    assert.match(onDashboard.body.message, /is the cron secret/);
    const onCron = await app.call('POST', '/test/cron', { token: account.ownerToken });
    assertError(onCron, 401, 'wrong_credential_kind');
    assert.match(onCron.body.message, /takes the cron secret/);
  });

  it('the service secret on a dashboard route, and an agent key on a service-secret route, answer 401 wrong_credential_kind', async () => {
    const agentSecret = harness().deps.config.AGENT_SECRET!;
    const onDashboard = await call('GET', '/api/me', { headers: { 'x-agent-secret': agentSecret } });
    assertError(onDashboard, 401, 'wrong_credential_kind');
    assert.match(onDashboard.body.message, /is the service secret/);
    const onBuilder = await app.call('GET', '/test/builder', { token: account.agentKey });
    assertError(onBuilder, 401, 'wrong_credential_kind');
    assert.match(onBuilder.body.message, /takes the service secret in x-agent-secret/);
    const either = await call('POST', `/api/builder/site-platform/${randomUUID()}/forms/backfill`, { token: account.agentKey, body: {} });
    assertError(either, 401, 'wrong_credential_kind');
    assert.match(either.body.message, /takes a user session token \(wys_…\) or the service secret in x-agent-secret/);
  });

  it('a revoked, forged or unknown credential of another kind answers as before, naming no kind', async () => {
    const key = await newAgentKey(account.accountId, ['crm:read']);
    const { body } = await call('GET', '/api/agent/me', { token: key });
    await call('DELETE', `/api/agent-keys/${body.key.id}`, { token: account.ownerToken });
    const forgedSession = account.ownerToken.slice(0, 4 + 32) + randomBytes(32).toString('base64url');
    const { token: emailToken } = await emailKey(account.accountId, { environment: 'test' });
    const forgedEmailKey = emailToken.slice(0, -4) + (emailToken.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const token of [key, unknownToken('wyk_'), forgedEmailKey, randomBytes(32).toString('hex')]) {
      const res = await call('GET', '/api/me', { token });
      assertError(res, 401, 'invalid_credentials');
      assert.doesNotMatch(res.body.message, /session token|agent API key|email API key|secret/);
    }
    for (const token of [forgedSession, unknownToken('wys_')]) {
      assertError(await call('GET', '/api/agent/me', { token }), 401, 'invalid_credentials');
      assertError(await call('POST', '/v1/email/send', { token, body: {} }), 401, 'invalid_api_key');
    }
    assertError(await app.call('POST', '/test/cron', { token: forgedSession }), 401, 'invalid_credentials');
    assertError(await app.call('GET', '/test/builder', { headers: { 'x-agent-secret': 'not-the-secret' } }), 401, 'invalid_credentials');
    assertError(await call('GET', '/api/me', { headers: { 'x-agent-secret': 'not-the-secret' } }), 401, 'missing_credentials');
  });

  it('a member calling an owner or admin route answers 403 forbidden_role', async () => {
    const member = await newUser(account.accountId, 'member');
    assertError(await call('GET', '/api/agent-keys', { token: member.token }), 403, 'forbidden_role');
    assertError(
      await call('POST', '/api/users', { token: member.token, body: { email: 'x@example.test', name: 'X', role: 'member' } }),
      403,
      'forbidden_role',
    );
  });

  it('an agent key without the route permission answers 403 missing_permission', async () => {
    const key = await newAgentKey(account.accountId, ['crm:read']);
    assertError(await app.call('GET', '/test/crm-read', { token: key }), 403, 'missing_permission');
    const allowed = await newAgentKey(account.accountId, ['crm:write']);
    assert.equal((await app.call('GET', '/test/crm-read', { token: allowed })).status, 200);
  });

  it('a read-only key on a non-GET route answers 403 read_only_key', async () => {
    const key = await newAgentKey(account.accountId, ['crm:write'], true);
    assertError(await app.call('POST', '/test/crm-write', { token: key }), 403, 'read_only_key');
    assert.equal((await app.call('GET', '/test/crm-read', { token: key })).status, 200, 'the same key may read');
  });

  it('an x-agent-secret route without the header answers 401 missing_credentials', async () => {
    assertError(await app.call('GET', '/test/builder'), 401, 'missing_credentials');
  });

  it('an x-agent-secret route with a wrong secret answers 401 invalid_credentials', async () => {
    assertError(
      await app.call('GET', '/test/builder', { headers: { 'x-agent-secret': randomBytes(32).toString('hex') } }),
      401,
      'invalid_credentials',
    );
    const right = harness().deps.config.AGENT_SECRET!;
    assert.equal((await app.call('GET', '/test/builder', { headers: { 'x-agent-secret': right } })).status, 200);
  });

  it('x-agent-secret routes answer 401 agent_secret_unset while AGENT_SECRET is unset', async () => {
    const sent = harness().deps.config.AGENT_SECRET!;
    assertError(await closedApp.call('GET', '/test/builder', { headers: { 'x-agent-secret': sent } }), 401, 'agent_secret_unset');
  });

  it('cron routes answer 401 cron_secret_unset while CRON_SECRET is unset', async () => {
    assertError(await closedApp.call('POST', '/test/cron', { token: harness().deps.config.CRON_SECRET! }), 401, 'cron_secret_unset');
  });

  it('a cron route with a wrong or missing secret answers 401', async () => {
    assertError(await app.call('POST', '/test/cron', { token: randomBytes(32).toString('hex') }), 401, 'invalid_credentials');
    assertError(await app.call('POST', '/test/cron'), 401, 'missing_credentials');
    assert.equal((await app.call('POST', '/test/cron', { token: harness().deps.config.CRON_SECRET! })).status, 200);
  });
});
