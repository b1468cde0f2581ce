import assert from 'node:assert/strict';
import { route } from '../../src/http/route';
import { newAccount, newUser, type TestAccount } from '../helpers/accounts';
import { call, type CallResult } from '../helpers/http';
import { startPrivateApp, type PrivateApp } from '../helpers/privateApp';

const BODY_LIMIT = 2048;

const failingRoute = route(
  {
    method: 'get',
    path: '/test/explode',
    operationId: 'testExplode',
    summary: 'throws',
    tags: ['Test'],
    auth: { kind: 'none' },
    responses: { 200: { description: 'never' } },
  },
  async () => {
    throw new Error('connection to db-primary.internal:5432 refused for user admin');
  },
);

function assertErrorBody(res: CallResult, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const expected =
    code === 'validation_failed' ? ['code', 'errors', 'message', 'request_id', 'status'] : ['code', 'message', 'request_id', 'status'];
  assert.deepEqual(Object.keys(res.body).sort(), expected);
  assert.equal(res.body.code, code);
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.message, 'string');
  assert.ok(res.body.message.length > 0);
  assert.equal(res.body.request_id, res.headers.get('x-request-id'));
}

describe('error responses', () => {
  let account: TestAccount;
  let app: PrivateApp;
  before(async () => {
    account = await newAccount();
    app = await startPrivateApp([failingRoute], { config: { BODY_LIMIT_BYTES: BODY_LIMIT } });
  });
  after(async () => {
    await app?.close();
  });

  it('every error is { code, message, status, request_id }, plus errors for validation', async () => {
    const member = await newUser(account.accountId, 'member');
    assertErrorBody(await call('GET', '/api/me'), 401, 'missing_credentials');
    assertErrorBody(await call('GET', '/api/agent-keys', { token: member.token }), 403, 'forbidden_role');
    assertErrorBody(await call('GET', '/nowhere'), 404, 'route_not_found');
    assertErrorBody(await call('PATCH', '/healthz'), 405, 'method_not_allowed');
    assertErrorBody(await call('POST', '/api/agent-keys', { token: account.ownerToken, body: {} }), 400, 'validation_failed');
    assertErrorBody(
      await call('POST', '/api/agent-keys', { token: account.ownerToken, rawBody: '{', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
    assertErrorBody(await app.call('GET', '/test/explode'), 500, 'internal');
    const taken = { email: 'twice@example.test', name: 'Twice', role: 'member' };
    await call('POST', '/api/users', { token: account.ownerToken, body: taken });
    assertErrorBody(await call('POST', '/api/users', { token: account.ownerToken, body: taken }), 409, 'user_email_taken');
  });

  it('an unknown route answers 404 route_not_found', async () => {
    const res = await call('GET', '/api/no-such-thing');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'route_not_found');
  });

  it('a known path with another method answers 405 method_not_allowed with Allow', async () => {
    const res = await call('PUT', '/api/agent-keys', { token: account.ownerToken, body: {} });
    assert.equal(res.status, 405);
    assert.equal(res.body.code, 'method_not_allowed');
    const allow = (res.headers.get('allow') ?? '').split(/,\s*/).sort();
    assert.deepEqual(allow, ['GET', 'HEAD', 'POST']);
    const unknownMethod = await call('PROPFIND', '/healthz');
    assert.equal(unknownMethod.status, 405);
    assert.equal(unknownMethod.body.code, 'method_not_allowed');
  });

  it('a body over the limit answers 413 payload_too_large', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT), permissions: ['crm:read'] });
    const res = await app.call('POST', '/api/agent-keys', {
      token: account.ownerToken,
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    assertErrorBody(res, 413, 'payload_too_large');
    const atLimit = await app.call('POST', '/api/agent-keys', {
      token: account.ownerToken,
      body: { name: 'small', permissions: ['crm:read'] },
    });
    assert.equal(atLimit.status, 201, 'a body under the limit still passes');
  });

  it('a streamed body over the limit without Content-Length answers 413 payload_too_large', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 4) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${app.baseUrl}/api/agent-keys`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${account.ownerToken}` },
    } as RequestInit);
    assert.equal(res.status, 413);
    assert.equal(((await res.json()) as { code: string }).code, 'payload_too_large');
  });

  it('malformed JSON answers 400 invalid_json', async () => {
    const res = await call('POST', '/api/agent-keys', {
      token: account.ownerToken,
      rawBody: '{"name": "k",',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_json');
  });

  it('a body that is not JSON answers 415 unsupported_media_type', async () => {
    const res = await call('POST', '/api/agent-keys', {
      token: account.ownerToken,
      rawBody: 'name=k',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertErrorBody(res, 415, 'unsupported_media_type');
  });

  it('an unknown body field answers 400 validation_failed naming it', async () => {
    const res = await call('POST', '/api/agent-keys', {
      token: account.ownerToken,
      body: { name: 'k', permissions: ['crm:read'], colour: 'blue' },
    });
    assertErrorBody(res, 400, 'validation_failed');
    assert.equal(res.body.errors.length, 1);
    assert.match(res.body.errors[0].message, /colour/);
    assert.match(res.body.message, /colour/);
  });

  it('a handler that throws an unexpected error answers 500 internal without its message', async () => {
    const res = await app.call('GET', '/test/explode');
    assert.equal(res.status, 500);
    assert.equal(res.body.code, 'internal');
    assert.ok(!res.text.includes('db-primary'), 'internals leaked');
    assert.ok(!res.text.includes('refused'), 'internals leaked');
  });
});
