import assert from 'node:assert/strict';
import { EMAIL_EVENT_TYPES } from '../../../src/email/webhooks/service';
import { openWebhookSecret } from '../../../src/email/webhooks/secretBox';
import { harness } from '../../helpers/harness';
import { call } from '../../helpers/http';
import { assertCreatedEndpoint, assertEndpointNotFound, endpointRoutesOf } from '../../helpers/webhookEndpoints';
import { ABSENT_IDS, assertError, assertFieldError } from '../../marketing/grounding/fixtures';
import { createEndpoint, emailKey, keyedAccount, startWebhookWorld, type WebhookWorld } from './fixtures';

const PATH = '/v1/email/webhooks';
const HOOK = { url: 'https://hooks.example.com/email', events: ['email.sent'] };

describe('email webhook endpoints', function () {
  this.timeout(30_000);
  let world: WebhookWorld;
  before(async () => {
    world = await startWebhookWorld();
  });
  after(async () => {
    await world?.stop();
  });

  it('the known event types begin with email.sent, email.failed and email.scheduled (the list is append-only)', () => {
    assert.deepEqual(EMAIL_EVENT_TYPES.slice(0, 3), ['email.sent', 'email.failed', 'email.scheduled']);
  });

  it('create answers 201 with a whsec_ signing secret of 32 random bytes, shown once and stored only sealed', async () => {
    const { accountId, key } = await keyedAccount();
    const res = await call('POST', PATH, { token: key, body: { ...HOOK, description: 'CRM sync' } });
    assertCreatedEndpoint(res, { url: HOOK.url, events: ['email.sent'], description: 'CRM sync' });
    const row = await harness().db('email_webhook_endpoints').where({ id: res.body.id, account_id: accountId }).first();
    assert.ok(!JSON.stringify(row).includes(res.body.secret.slice(6)), 'the secret is not stored in the clear');
    assert.match(row.secret_enc, /^v1:/);
    assert.equal(openWebhookSecret(harness().deps.secretHashKey, row.secret_enc), res.body.secret);
    const second = await call('POST', PATH, { token: key, body: HOOK });
    assert.notEqual(second.body.secret, res.body.secret, 'each endpoint gets its own secret');
  });

  it('secrets never appear in GET, list or PATCH answers', async () => {
    const { key } = await keyedAccount();
    const created = await createEndpoint(key, HOOK);
    const secretPart = created.secret.slice(6);
    const answers = [
      await call('GET', `${PATH}/${created.id}`, { token: key }),
      await call('GET', PATH, { token: key }),
      await call('PATCH', `${PATH}/${created.id}`, { token: key, body: { description: 'renamed' } }),
    ];
    for (const res of answers) {
      assert.equal(res.status, 200, res.text);
      assert.ok(!res.text.includes(secretPart) && !res.text.includes('whsec_'), res.text);
      assert.ok(!res.text.includes('secret'), `no secret field: ${res.text}`);
    }
  });

  it('the URL must be https on a public host; anything else is 400 on body.url and writes nothing', async () => {
    const { accountId, key } = await keyedAccount();
    for (const url of [
      'http://hooks.example.com/x',
      'ftp://hooks.example.com/x',
      'not a url',
      'https://user:pw@hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://10.1.2.3/x',
      'https://169.254.169.254/latest',
      'https://[::ffff:192.168.0.1]/x',
      'https://localhost/x',
      'http://127.0.0.1:8080/x',
      `https://hooks.example.com/${'a'.repeat(2100)}`,
    ]) {
      assertFieldError(await call('POST', PATH, { token: key, body: { ...HOOK, url } }), 'body.url');
    }
    const count = await harness().db('email_webhook_endpoints').where({ account_id: accountId }).count<{ n: string }[]>({ n: '*' });
    assert.equal(Number(count[0].n), 0);
  });

  it('http is accepted only for a loopback host, and only when private hosts are allowed (sandbox)', async () => {
    const { key } = await keyedAccount();
    assert.equal((await world.app.call('POST', PATH, { token: key, body: { ...HOOK, url: 'http://127.0.0.1:9/x' } })).status, 201);
    assert.equal((await world.app.call('POST', PATH, { token: key, body: { ...HOOK, url: 'http://localhost:9/x' } })).status, 201);
    assertFieldError(await world.app.call('POST', PATH, { token: key, body: { ...HOOK, url: 'http://hooks.example.com/x' } }), 'body.url');
  });

  it('events must be a non-empty list of known types without repeats', async () => {
    const { key } = await keyedAccount();
    for (const events of [[], ['email.sent', 'email.sent'], 'email.sent']) {
      assertFieldError(await call('POST', PATH, { token: key, body: { ...HOOK, events } }), 'body.events');
    }
    for (const unknown of ['email.nonexistent', 'email.test']) {
      assertFieldError(await call('POST', PATH, { token: key, body: { ...HOOK, events: ['email.sent', unknown] } }), 'body.events.1');
    }
    assertFieldError(await call('POST', PATH, { token: key, body: { url: HOOK.url } }), 'body.events');
    assertFieldError(await call('POST', PATH, { token: key, body: { ...HOOK, extra: 1 } }), 'body');
    assert.equal((await call('POST', PATH, { token: key, body: { ...HOOK, events: ['email.failed', 'email.sent'] } })).status, 201);
  });

  it('PATCH changes url, events, description and enabled; an absent field stays; a bad value changes nothing', async () => {
    const { key } = await keyedAccount();
    const created = await createEndpoint(key, { ...HOOK, description: 'one' });
    const patched = await call('PATCH', `${PATH}/${created.id}`, {
      token: key,
      body: { url: 'https://other.example.com/in', events: ['email.failed'], enabled: false },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(
      { url: patched.body.url, events: patched.body.events, description: patched.body.description, enabled: patched.body.enabled },
      { url: 'https://other.example.com/in', events: ['email.failed'], description: 'one', enabled: false },
    );
    assertFieldError(await call('PATCH', `${PATH}/${created.id}`, { token: key, body: { url: 'http://other.example.com/' } }), 'body.url');
    assertFieldError(await call('PATCH', `${PATH}/${created.id}`, { token: key, body: { events: [] } }), 'body.events');
    const cleared = await call('PATCH', `${PATH}/${created.id}`, { token: key, body: { description: null } });
    assert.equal(cleared.body.description, null);
    const got = await call('GET', `${PATH}/${created.id}`, { token: key });
    assert.equal(got.body.url, 'https://other.example.com/in');
    assert.equal(got.body.enabled, false);
  });

  it('DELETE removes the endpoint: it answers 404 afterwards', async () => {
    const { key } = await keyedAccount();
    const created = await createEndpoint(key, HOOK);
    assert.equal((await call('DELETE', `${PATH}/${created.id}`, { token: key })).status, 204);
    assertError(await call('GET', `${PATH}/${created.id}`, { token: key }), 404, 'webhook_endpoint_not_found');
    assertError(await call('DELETE', `${PATH}/${created.id}`, { token: key }), 404, 'webhook_endpoint_not_found');
  });

  it("the list is paged, newest first, and holds only the account's endpoints", async () => {
    const { key } = await keyedAccount();
    const other = await keyedAccount();
    await createEndpoint(other.key, HOOK);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createEndpoint(key, { ...HOOK, description: `n${i}` })).id);
    const first = await call('GET', `${PATH}?limit=2`, { token: key });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual({ total: first.body.total, page: first.body.page, limit: first.body.limit }, { total: 3, page: 1, limit: 2 });
    assert.deepEqual(
      first.body.data.map((e: { id: string }) => e.id),
      [ids[2], ids[1]],
    );
    const second = await call('GET', `${PATH}?limit=2&page=2`, { token: key });
    assert.deepEqual(
      second.body.data.map((e: { id: string }) => e.id),
      [ids[0]],
    );
    assertFieldError(await call('GET', `${PATH}?limit=101`, { token: key }), 'query.limit');
  });

  it("another account's endpoint, a missing or a malformed id answers 404 webhook_endpoint_not_found on every route", async () => {
    const owner = await keyedAccount();
    const stranger = await keyedAccount();
    const created = await createEndpoint(owner.key, HOOK);
    for (const id of [created.id, ...ABSENT_IDS]) await assertEndpointNotFound(PATH, id, stranger.key);
    const still = await call('GET', `${PATH}/${created.id}`, { token: owner.key });
    assert.equal(still.status, 200);
    assert.equal(still.body.enabled, true, 'the stranger changed nothing');
  });

  it('a key without the email:webhooks scope is 403 missing_scope; no or a bad key is 401', async () => {
    const { accountId, key } = await keyedAccount();
    const created = await createEndpoint(key, HOOK);
    const sender = await emailKey(accountId, ['email:send', 'email:batch', 'email:domains', 'email:templates']);
    for (const [method, path] of endpointRoutesOf(PATH, created.id)) {
      assertError(
        await call(method, path, { token: sender, body: method === 'POST' || method === 'PATCH' ? HOOK : undefined }),
        403,
        'missing_scope',
      );
      assert.equal((await call(method, path, {})).status, 401);
    }
    assert.equal((await call('GET', `${PATH}/${created.id}`, { token: key })).status, 200, 'nothing was deleted');
  });

  it('the endpoints are documented in the OpenAPI document with the email:webhooks scope', async () => {
    const res = await call('GET', '/openapi.json');
    assert.equal(res.status, 200);
    const paths = res.body.paths;
    for (const path of [PATH, `${PATH}/{id}`, `${PATH}/{id}/test`, `${PATH}/{id}/deliveries`]) assert.ok(paths[path], path);
    assert.deepEqual(paths[PATH].post.security, [{ emailKey: ['email:webhooks'] }]);
    assert.ok(paths[PATH].post.responses['201']);
  });
});
