import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { route } from '../../src/http/route';
import { createLogger } from '../../src/logger';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';

const tags = ['Test'];
const responses = { 200: { description: 'ok', schema: z.object({ ok: z.literal(true) }) } };

/** Test routes that log the way careless code would: whole header objects, and an error thrown mid-request. */
const loggingRoutes = () => [
  route(
    {
      method: 'get',
      path: '/test/log-headers',
      operationId: 'testLogHeaders',
      summary: 'logs headers',
      tags,
      auth: { kind: 'none' },
      responses,
    },
    async ({ ctx, deps }) => {
      deps.logger.info({ req: { headers: ctx.request.headers } }, 'request headers');
      deps.logger.info({ headers: ctx.request.headers }, 'headers');
      return { body: { ok: true as const } };
    },
  ),
  route(
    {
      method: 'get',
      path: '/test/builder',
      operationId: 'testBuilder',
      summary: 'builder probe',
      tags,
      auth: { kind: 'agentSecret' },
      responses,
    },
    async () => ({ body: { ok: true as const } }),
  ),
  route(
    {
      method: 'get',
      path: '/test/explode',
      operationId: 'testExplode',
      summary: 'throws',
      tags,
      auth: { kind: 'session' },
      responses: { 200: { description: 'never' } },
    },
    async () => {
      throw new Error('unexpected failure');
    },
  ),
];

describe('secrets never leak', () => {
  let account: TestAccount;
  beforeEach(async () => {
    account = await newAccount();
  });

  it('tokens shown at creation are never returned by list or read routes', async () => {
    const key = await call('POST', '/api/agent-keys', { token: account.ownerToken, body: { name: 'k', permissions: ['crm:read'] } });
    const user = await call('POST', '/api/users', {
      token: account.ownerToken,
      body: { email: 'leak@example.test', name: 'L', role: 'admin' },
    });
    const secrets = [key.body.token, user.body.session_token, account.ownerToken, account.agentKey];
    const reads = [
      await call('GET', '/api/agent-keys', { token: account.ownerToken }),
      await call('GET', '/api/users', { token: account.ownerToken }),
      await call('GET', '/api/me', { token: user.body.session_token }),
      await call('GET', '/api/agent/me', { token: key.body.token }),
      await call('DELETE', `/api/agent-keys/${key.body.id}`, { token: account.ownerToken }),
    ];
    for (const res of reads) {
      assert.ok(res.status < 300, res.text);
      for (const secret of secrets)
        assert.ok(!res.text.includes(secret.slice(4 + 32)), `a token's secret appeared in ${res.text.slice(0, 80)}`);
    }
  });

  it('credential rows hold only a hash of the secret', async () => {
    const key = await call('POST', '/api/agent-keys', { token: account.ownerToken, body: { name: 'hashed', permissions: ['crm:read'] } });
    const user = await call('POST', '/api/users', {
      token: account.ownerToken,
      body: { email: 'hash@example.test', name: 'H', role: 'member' },
    });
    const { db } = harness();
    const keyRow = JSON.stringify(await db('agent_keys').where({ id: key.body.id }).first());
    const sessionRows = JSON.stringify(await db('session_tokens').where({ user_id: user.body.user.id }));
    assert.ok(!keyRow.includes(key.body.token.slice(4 + 32)));
    assert.ok(!sessionRows.includes(user.body.session_token.slice(4 + 32)));
    assert.ok(sessionRows.includes('secret_hash'), 'the session row was read');
  });

  describe('in the logs', () => {
    const lines: string[] = [];
    let app: PrivateApp;
    const agentSecret = randomBytes(32).toString('hex');

    before(async () => {
      const logger = createLogger('trace', {
        write: (line: string) => {
          lines.push(line);
        },
      });
      app = await startPrivateApp(loggingRoutes(), { logger, config: { AGENT_SECRET: agentSecret } });
    });
    after(async () => {
      await app?.close();
    });

    it('tokens and the x-agent-secret value never appear in log lines', async () => {
      const wrongSecret = randomBytes(32).toString('hex');
      const forged = account.ownerToken.slice(0, 4 + 32) + randomBytes(32).toString('base64url');
      const created = await app.call('POST', '/api/agent-keys', {
        token: account.ownerToken,
        body: { name: 'logged', permissions: ['crm:read'] },
      });
      const user = await app.call('POST', '/api/users', {
        token: account.ownerToken,
        body: { email: 'log@example.test', name: 'Log', role: 'member' },
      });
      assert.equal(created.status, 201);
      assert.equal(user.status, 201);
      const authHeaders = { authorization: `Bearer ${account.ownerToken}`, 'x-agent-secret': agentSecret };
      const responses = [
        await app.call('GET', '/api/me', { token: account.ownerToken }),
        await app.call('GET', '/api/me', { token: forged }),
        await app.call('GET', '/api/agent/me', { token: created.body.token }),
        await app.call('GET', '/api/agent-keys', { token: account.ownerToken }),
        await app.call('GET', '/test/builder', { headers: { 'x-agent-secret': agentSecret } }),
        await app.call('GET', '/test/builder', { headers: { 'x-agent-secret': wrongSecret } }),
        await app.call('GET', '/test/log-headers', { headers: authHeaders }),
        await app.call('GET', '/test/explode', { token: user.body.session_token }),
      ];
      assert.deepEqual(
        responses.map((r) => r.status),
        [200, 401, 200, 200, 200, 401, 200, 500],
      );

      const log = lines.join('');
      assert.ok(lines.length >= responses.length + 2, 'every request was logged');
      assert.ok(log.includes('unhandled error'), 'the 500 was logged');
      assert.ok(log.includes('[redacted]'), 'the header-logging route wrote its lines');
      const secrets = [account.ownerToken, forged, created.body.token, user.body.session_token, agentSecret, wrongSecret];
      for (const secret of secrets) {
        assert.ok(!log.includes(secret), `a secret appeared in the log: ${secret.slice(0, 6)}…`);
        assert.ok(!log.includes(secret.slice(-24)), `part of a secret appeared in the log: ${secret.slice(0, 6)}…`);
      }
    });
  });
});
