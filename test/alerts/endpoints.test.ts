import assert from 'node:assert/strict';
import { openAlertSecret } from '../../src/alerts/secretBox';
import { newAccount, newUser } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { call } from '../helpers/http';
import { Receiver, verifyStandardWebhook } from '../email/webhooks/receiver';
import { assertCreatedEndpoint, assertEndpointNotFound, endpointRoutesOf } from '../helpers/webhookEndpoints';
import { ABSENT_IDS, assertError, assertFieldError } from '../marketing/grounding/fixtures';
import { createEndpoint, deliveriesOf, deliveryResult, startAlertWorld, type AlertWorld } from './fixtures';

const PATH = '/api/webhook-endpoints';
const HOOK = { url: 'https://hooks.example.com/alerts', events: ['job.failed'] };

describe('account webhook endpoints', function () {
  this.timeout(30_000);
  let world: AlertWorld;
  before(async () => {
    world = await startAlertWorld();
  });
  after(async () => {
    await world?.stop();
  });

  it('create answers 201 with a whsec_ secret of 32 random bytes, shown once and stored only sealed; reads never show it', async () => {
    const { accountId, ownerToken } = await newAccount();
    const res = await call('POST', PATH, { token: ownerToken, body: { ...HOOK, description: 'pager' } });
    assertCreatedEndpoint(res, { url: HOOK.url, events: ['job.failed'], description: 'pager' });
    const row = await harness().db('account_webhook_endpoints').where({ id: res.body.id, account_id: accountId }).first();
    assert.ok(!JSON.stringify(row).includes(res.body.secret.slice(6)), 'the secret is not stored in the clear');
    assert.equal(openAlertSecret(harness().deps.secretHashKey, row.secret_enc), res.body.secret);
    for (const read of [
      await call('GET', `${PATH}/${res.body.id}`, { token: ownerToken }),
      await call('GET', PATH, { token: ownerToken }),
      await call('PATCH', `${PATH}/${res.body.id}`, { token: ownerToken, body: { description: 'renamed' } }),
    ]) {
      assert.equal(read.status, 200, read.text);
      assert.ok(!read.text.includes('secret') && !read.text.includes(res.body.secret.slice(6)), read.text);
    }
  });

  it('a bad URL is 400 on body.url (https on a public host only) and writes nothing; unknown event types are 400 on body.events', async () => {
    const { accountId, ownerToken } = await newAccount();
    for (const url of [
      'http://hooks.example.com/x',
      'not a url',
      'https://user:pw@hooks.example.com/x',
      'https://10.1.2.3/x',
      'https://localhost/x',
    ]) {
      assertFieldError(await call('POST', PATH, { token: ownerToken, body: { ...HOOK, url } }), 'body.url');
    }
    for (const events of [[], ['job.failed', 'job.failed'], ['email.sent'], ['webhook_endpoint.test']]) {
      assertFieldError(
        await call('POST', PATH, { token: ownerToken, body: { ...HOOK, events } }),
        events.length ? `body.events${events.length === 1 ? '.0' : ''}` : 'body.events',
      );
    }
    const created = await createEndpoint(world.app, ownerToken, { ...HOOK, url: 'http://127.0.0.1:9/x' });
    assertFieldError(
      await call('PATCH', `${PATH}/${created.id}`, { token: ownerToken, body: { url: 'ftp://x.example.com/' } }),
      'body.url',
    );
    const count = await harness().db('account_webhook_endpoints').where({ account_id: accountId }).count<{ n: string }[]>({ n: '*' });
    assert.equal(Number(count[0].n), 1);
  });

  it("another account's endpoint, a missing or a malformed id answers 404 webhook_endpoint_not_found on every route", async () => {
    const owner = await newAccount();
    const stranger = await newAccount();
    const created = await createEndpoint(world.app, owner.ownerToken, HOOK);
    for (const id of [created.id, ...ABSENT_IDS]) await assertEndpointNotFound(PATH, id, stranger.ownerToken);
    const still = await call('GET', `${PATH}/${created.id}`, { token: owner.ownerToken });
    assert.equal(still.body.enabled, true, 'the stranger changed nothing');
  });

  it('only owners and admins manage endpoints: a member is 403 forbidden_role, no session is 401', async () => {
    const owner = await newAccount();
    const created = await createEndpoint(world.app, owner.ownerToken, HOOK);
    const member = await newUser(owner.accountId, 'member');
    const admin = await newUser(owner.accountId, 'admin');
    assert.equal((await call('GET', `${PATH}/${created.id}`, { token: admin.token })).status, 200);
    for (const [method, path] of [
      ...endpointRoutesOf(PATH, created.id),
      ['POST', '/api/job-callbacks/secret'],
      ['GET', '/api/job-callbacks/deliveries'],
    ]) {
      const body = method === 'PATCH' ? { enabled: false } : method === 'POST' && path === PATH ? HOOK : undefined;
      assertError(await call(method, path, { token: member.token, body }), 403, 'forbidden_role');
      assert.equal((await call(method, path, {})).status, 401);
    }
  });

  it('a test send delivers a signed webhook_endpoint.test event to that one endpoint, shown in its delivery log', async () => {
    const receiver = await Receiver.start();
    try {
      const { ownerToken } = await newAccount();
      const hook = await createEndpoint(world.app, ownerToken, { url: receiver.url, events: ['inbox.urgent'] });
      const other = await createEndpoint(world.app, ownerToken, { url: receiver.url, events: ['inbox.urgent'] });
      const res = await world.app.call('POST', `${PATH}/${hook.id}/test`, { token: ownerToken });
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.job_id, `alert-event:${res.body.event_id}`);
      const result = await deliveryResult(res.body.event_id);
      assert.deepEqual(
        result.deliveries.map((d) => [d.endpoint_id, d.status, d.attempts]),
        [[hook.id, 'delivered', 1]],
      );
      assert.equal(receiver.received.length, 1);
      const [request] = receiver.received;
      assert.ok(verifyStandardWebhook(hook.secret, request.headers, request.body));
      assert.equal(verifyStandardWebhook(other.secret, request.headers, request.body), false);
      const body = JSON.parse(request.body.toString('utf8'));
      assert.equal(body.type, 'webhook_endpoint.test');
      assert.equal(body.data.webhook_endpoint_id, hook.id);
      const log = await deliveriesOf(world.app, ownerToken, hook.id);
      assert.deepEqual(
        log.body.data.map((d: Record<string, unknown>) => [d.event_id, d.event_type, d.status, d.attempts, d.last_status, d.last_error]),
        [[res.body.event_id, 'webhook_endpoint.test', 'delivered', 1, 200, null]],
      );
      assert.equal((await deliveriesOf(world.app, ownerToken, other.id)).body.total, 0);
    } finally {
      await receiver.close();
    }
  });

  it('a test send to a disabled endpoint is 409 webhook_endpoint_disabled', async () => {
    const { ownerToken } = await newAccount();
    const hook = await createEndpoint(world.app, ownerToken, HOOK);
    await call('PATCH', `${PATH}/${hook.id}`, { token: ownerToken, body: { enabled: false } });
    assertError(await call('POST', `${PATH}/${hook.id}/test`, { token: ownerToken }), 409, 'webhook_endpoint_disabled');
  });

  it('the routes are documented in the OpenAPI document', async () => {
    const paths = (await call('GET', '/openapi.json')).body.paths;
    for (const path of [
      PATH,
      `${PATH}/{id}`,
      `${PATH}/{id}/test`,
      `${PATH}/{id}/deliveries`,
      '/api/job-callbacks/secret',
      '/api/job-callbacks/deliveries',
    ]) {
      assert.ok(paths[path], path);
    }
  });
});
