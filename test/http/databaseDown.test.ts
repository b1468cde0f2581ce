import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../src/app/app';
import { closeAgentKeyCache } from '../../src/auth/agentKeyRuntime';
import { createAccount } from '../../src/auth/service';
import { createDb, migrateLatest, type Knex } from '../../src/db/knex';
import type { AppDeps } from '../../src/deps';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/dev/embeddedPostgres';
import { createDomain } from '../../src/email/domains/service';
import { recordCheck } from '../../src/email/domains/store';
import { closeEmailRuntime } from '../../src/email/keys/runtime';
import { createEmailKey } from '../../src/email/keys/service';
import { createMetrics } from '../../src/http/metrics';
import { harness } from '../helpers/harness';
import { callAt, type CallOptions, type CallResult } from '../helpers/http';

/** The real app on a database of its own (`db`, reached at `url`), on its own loopback port. */
async function appOn(db: Knex, url: string) {
  const base = harness().deps;
  const deps: AppDeps = { ...base, db, config: { ...base.config, DATABASE_URL: url }, metrics: createMetrics(false) };
  const server: Server = createServer(createApp(deps).callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    deps,
    call: (method: string, urlPath: string, options?: CallOptions) => callAt(baseUrl, method, urlPath, options),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await Promise.allSettled([closeEmailRuntime(deps), closeAgentKeyCache(deps)]);
    },
  };
}

function assertDatabaseUnavailable(res: CallResult, what: string) {
  assert.equal(res.status, 503, `${what}: ${res.text}`);
  assert.equal(res.body.code, 'database_unavailable', what);
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter > 0, `${what}: Retry-After is ${res.headers.get('retry-after')}`);
  assert.equal(res.body.retry_after_seconds, retryAfter, what);
  assert.equal(res.body.request_id, res.headers.get('x-request-id'), what);
  assert.doesNotMatch(res.text, /ECONNREFUSED|postgres|127\.0\.0\.1|select|insert/i, `${what}: no internals`);
}

describe('a database that cannot be reached', function () {
  this.timeout(180_000);
  let dir: string;
  let server: EmbeddedDatabase;
  let db: Knex;
  let app: Awaited<ReturnType<typeof appOn>>;
  let ownerToken: string;
  let agentKey: string;
  let emailToken: string;
  const FROM = 'Acme <support@mail.down.test>';

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'workyard-db-down-'));
    await chmod(dir, 0o755); // run as root, the server runs as the `postgres` user
    server = await startEmbeddedPostgres(path.join(dir, 'postgres'), { persistent: false });
    db = createDb(server.serverUrl, 4);
    await migrateLatest(db);
    app = await appOn(db, server.serverUrl);
    const created = await createAccount(db, app.deps.secretHashKey, { name: 'Down Co', ownerEmail: 'owner@down.test', ownerName: 'Owner' });
    ownerToken = created.ownerToken;
    agentKey = created.agentKey;
    const domain = await createDomain(db, created.account.id, 'mail.down.test');
    await recordCheck(db, created.account.id, domain.id, { verified: true, error: null });
    emailToken = (
      await createEmailKey(app.deps, created.account.id, { name: 'down', environment: 'test', scopes: ['email:send'], ratePerSecond: 100 })
    ).token;
    // Every credential works while the database is up (the email key is then held by the in-process keyring).
    assert.equal((await app.call('GET', '/api/crm/contacts', { token: ownerToken })).status, 200);
    assert.equal((await app.call('GET', '/api/agent/knowledge-bases', { token: agentKey })).status, 200);
    const sent = await app.call('POST', '/v1/email/send', {
      token: emailToken,
      body: { from: FROM, to: 'a@b.test', subject: 'Hi', text: 'Hi' },
    });
    assert.equal(sent.status, 200, sent.text);
    await server.stop();
  });

  after(async () => {
    await app?.close();
    await db?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a CRM contact read and write with a valid session answer 503 database_unavailable with Retry-After (the session lookup fails first)', async () => {
    assertDatabaseUnavailable(await app.call('GET', '/api/crm/contacts', { token: ownerToken }), 'contact list');
    assertDatabaseUnavailable(
      await app.call('POST', '/api/crm/contacts', { token: ownerToken, body: { name: 'Ada', email: 'ada@example.test' } }),
      'contact create',
    );
  });

  it('an agent route with a valid agent key answers 503 database_unavailable, not 401', async () => {
    assertDatabaseUnavailable(await app.call('GET', '/api/agent/knowledge-bases', { token: agentKey }), 'agent read');
    assertDatabaseUnavailable(
      await app.call('POST', '/api/agent/knowledge-bases', { token: agentKey, body: { name: 'Docs' } }),
      'agent write',
    );
  });

  it('the webhook receivers answer 503 database_unavailable, so the platforms redeliver', async () => {
    assertDatabaseUnavailable(
      await app.call('POST', '/api/webhooks/commerce', {
        rawBody: '{"id":1}',
        headers: {
          'content-type': 'application/json',
          'x-commerce-shop-domain': 'down.myshopify.com',
          'x-commerce-hmac-sha256': 'AAAA',
          'x-commerce-topic': 'orders/create',
          'x-commerce-webhook-id': randomUUID(),
        },
      }),
      'commerce receiver',
    );
    assertDatabaseUnavailable(
      await app.call('POST', `/api/webhooks/site-platform/${randomUUID()}/token`, {
        rawBody: '{"triggerType":"site_publish","payload":{}}',
        headers: { 'content-type': 'application/json' },
      }),
      'site platform receiver',
    );
  });

  it('an email send answers 503 database_unavailable', async () => {
    const body = { from: FROM, to: 'b@b.test', subject: 'Hi', text: 'Hi' };
    assertDatabaseUnavailable(await app.call('POST', '/v1/email/send', { token: emailToken, body }), 'email send');
  });

  it('a job start answers 503 database_unavailable', async () => {
    const secret = app.deps.config.AGENT_SECRET!;
    assertDatabaseUnavailable(
      await app.call('POST', `/api/builder/site-platform/${randomUUID()}/forms/backfill`, {
        body: {},
        headers: { 'x-agent-secret': secret, 'x-account-id': randomUUID() },
      }),
      'forms backfill (service secret)',
    );
    assertDatabaseUnavailable(
      await app.call('POST', '/api/jobs/bulk', { token: ownerToken, body: { action: 'cancel', filter: {} } }),
      'bulk job action (session)',
    );
  });
});

describe('a database that accepts connections but never answers', function () {
  this.timeout(120_000);
  let silent: ReturnType<typeof createTcpServer>;
  const sockets = new Set<Socket>();
  let db: Knex;
  let app: Awaited<ReturnType<typeof appOn>>;

  before(async () => {
    silent = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    const url = `postgres://postgres:postgres@127.0.0.1:${(silent.address() as AddressInfo).port}/silent`;
    db = createDb(url, 2);
    app = await appOn(db, url);
  });

  after(async () => {
    await app?.close();
    for (const socket of sockets) socket.destroy();
    await db?.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('a request answers 503 database_unavailable once the connection attempt gives up, instead of hanging', async function () {
    // The pool's own wait used to be 60 s; the bound here only keeps a hung request from passing.
    this.timeout(45_000);
    const ownerLike = `wys_${randomUUID().replace(/-/g, '')}${'a'.repeat(43)}`;
    assertDatabaseUnavailable(await app.call('GET', '/api/crm/contacts', { token: ownerLike }), 'session lookup on a silent server');
  });
});
