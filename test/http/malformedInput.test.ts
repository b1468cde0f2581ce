import assert from 'node:assert/strict';
import { EMAIL_SCOPES, type AuthSpec } from '../../src/auth/types';
import { createEmailKey } from '../../src/email/keys/service';
import { apiRoutes } from '../../src/app/routes';
import type { RouteDef } from '../../src/http/route';
import { newAccount, type TestAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call, type CallResult } from '../helpers/http';

/** Path values no id can be: every route must answer them 4xx, never 5xx, whatever it does with the value. */
const BAD_PATH_VALUES = ['not-a-uuid', '%00', '..%2F..%2Fetc', 'x'.repeat(2000), '00000000-0000-0000-0000-000000000000'];

/** Bodies no route's schema takes. */
const BAD_BODIES: Array<{ label: string; rawBody?: string; body?: unknown }> = [
  { label: 'text that is not JSON', rawBody: '{"unterminated": ' },
  { label: 'a JSON array', body: [1, 'two', null] },
  { label: 'a JSON number', body: 42 },
  { label: 'fields of the wrong type', body: { name: 123, email: ['x'], to: { a: 1 }, page: 'one', topic: null, url: 7, from: false } },
  { label: 'deeply nested JSON holding U+0000', rawBody: `${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}` },
  { label: 'strings holding U+0000', body: { name: 'a\u0000b', title: 'x\u0000', topic: '\u0000', subject: 's\u0000', text: '\u0000' } },
  {
    label: 'strings holding a lone UTF-16 surrogate',
    rawBody: '{"name":"a\\ud800","title":"\\udfff","topic":"x\\ud800","settings":{"k":"\\ud800"},"text":"\\ud800"}',
  },
];

const BAD_QUERY = '?page=-1&limit=abc&search[]=x&status=%00&from=not-a-date';

function fill(path: string, value: string): string {
  return path.replace(/\{[^}]+\}/g, value);
}

/**
 * Every route of the API table, called as its own credential kind allows, with malformed path values, bodies and
 * query strings: a client can send any of these, so none may answer a 5xx (doc: "No 500 for anything a client can
 * send"). Routes whose credential this test cannot hold (none today) are skipped by name in the assertion message.
 */
describe('malformed input never answers 5xx, on any route', function () {
  this.timeout(120_000);
  let account: TestAccount;
  let emailKey: string;
  const routes: RouteDef[] = apiRoutes(() => []);

  before(async () => {
    account = await newAccount('Malformed Co');
    emailKey = (
      await createEmailKey(harness().deps, account.accountId, { name: 'all scopes', environment: 'test', scopes: [...EMAIL_SCOPES] })
    ).token;
  });

  function credentials(auth: AuthSpec): { token?: string; headers?: Record<string, string> } {
    const { config } = harness().deps;
    switch (auth.kind) {
      case 'none':
        return {};
      case 'session':
      case 'sessionOrAgentSecret':
        return { token: account.ownerToken };
      case 'agent':
        return { token: account.agentKey };
      case 'agentSecret':
        return { headers: { 'x-agent-secret': config.AGENT_SECRET! } };
      case 'cron':
        return { token: config.CRON_SECRET! };
      case 'emailKey':
        return { token: emailKey };
    }
  }

  async function expect4xx(label: string, request: () => Promise<CallResult>) {
    const res = await request();
    assert.ok(res.status < 500, `${label} answered ${res.status}: ${res.text.slice(0, 300)}`);
  }

  it('malformed path values answer 4xx on every route that takes one (GET and DELETE run their handlers)', async () => {
    for (const { spec } of routes.filter((r) => r.spec.path.includes('{'))) {
      const auth = credentials(spec.auth);
      for (const value of BAD_PATH_VALUES) {
        const path = fill(spec.path, value);
        // Writes get a malformed body too, so nothing is created under a path that happens to resolve.
        const body =
          spec.method === 'get' || spec.method === 'delete'
            ? {}
            : { rawBody: '{"unterminated": ', headers: { ...auth.headers, 'content-type': 'application/json' } };
        await expect4xx(`${spec.method.toUpperCase()} ${path.slice(0, 120)}`, () =>
          call(spec.method.toUpperCase(), path, { ...auth, ...body }),
        );
      }
    }
  });

  it('malformed bodies answer 4xx on every route that takes a body', async () => {
    for (const { spec } of routes.filter((r) => r.spec.body || r.spec.rawBody)) {
      const auth = credentials(spec.auth);
      const path = fill(spec.path, '00000000-0000-4000-8000-000000000000');
      for (const bad of BAD_BODIES) {
        const headers = { ...auth.headers, 'content-type': 'application/json' };
        await expect4xx(`${spec.method.toUpperCase()} ${spec.path} with ${bad.label}`, () =>
          call(spec.method.toUpperCase(), path, {
            token: auth.token,
            headers,
            ...(bad.rawBody !== undefined ? { rawBody: bad.rawBody } : { body: bad.body }),
          }),
        );
      }
    }
  });

  it('a string holding U+0000 is 400 validation_failed naming its field, and nothing is written', async () => {
    const before = await harness().db('crm_contacts').where({ account_id: account.accountId }).count({ n: '*' });
    const res = await call('POST', '/api/crm/contacts', {
      token: account.ownerToken,
      body: { name: 'Ada\u0000Lovelace', email: 'ada@example.com' },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'validation_failed');
    assert.deepEqual(
      res.body.errors.map((e: { path: string }) => e.path),
      ['body.name'],
    );
    assert.deepEqual(await harness().db('crm_contacts').where({ account_id: account.accountId }).count({ n: '*' }), before);
    const query = await call('GET', '/api/crm/contacts?search=a%00b', { token: account.ownerToken });
    assert.equal(query.status, 400, query.text);
    assert.deepEqual(
      query.body.errors.map((e: { path: string }) => e.path),
      ['query.search'],
    );
  });

  it('malformed query strings answer 4xx on every GET route', async () => {
    // /readyz answers 503 when Postgres or Temporal is slow or down: about the server, not the request.
    for (const { spec } of routes.filter((r) => r.spec.method === 'get' && r.spec.operationId !== 'readyz')) {
      const auth = credentials(spec.auth);
      const path = fill(spec.path, '00000000-0000-4000-8000-000000000000');
      await expect4xx(`GET ${spec.path}${BAD_QUERY}`, () => call('GET', `${path}${BAD_QUERY}`, auth));
    }
  });
});
