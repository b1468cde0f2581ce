import assert from 'node:assert/strict';
import { assertFieldError } from '../../marketing/grounding/fixtures';
import { emailKey, message, messageRows, senderAccount, settledEmail, startSendWorld, type SendWorld, useSendWorld } from '../send/kit';
import { copyFor, linkOf, PUBLIC_URL } from './kit';

describe('the unsubscribe option of a send', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w), { config: { PUBLIC_APP_URL: PUBLIC_URL } });

  async function liveKey() {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    return { account, token, send: (body: unknown) => world.app.call('POST', '/v1/email/send', { token, body }) };
  }

  it('with unsubscribe on, a custom List-Unsubscribe or List-Unsubscribe-Post header is refused (400), whatever its case', async () => {
    const { account, send } = await liveKey();
    for (const unsubscribe of [true, {}, { url: 'https://acme.example/unsub' }]) {
      const headers = { 'list-unsubscribe': '<mailto:unsub@acme.example>' };
      assertFieldError(await send(message({ unsubscribe, headers })), 'body.headers.list-unsubscribe');
      const post = { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
      assertFieldError(await send(message({ unsubscribe, headers: post })), 'body.headers.List-Unsubscribe-Post');
    }
    assert.deepEqual(await messageRows(account.accountId), []);
  });

  it('with unsubscribe off, a custom List-Unsubscribe header is sent as given and nothing is added', async () => {
    const { send } = await liveKey();
    const to = 'own-header@customer.test';
    const res = await send(message({ to, unsubscribe: false, headers: { 'List-Unsubscribe': '<mailto:unsub@acme.example>' } }));
    assert.equal(res.status, 202, res.text);
    const [copy] = await world.smtp.waitForMessages(1);
    assert.deepEqual(copy.envelope.to, [to]);
    assert.equal(copy.parsed.header('list-unsubscribe'), '<mailto:unsub@acme.example>');
    assert.equal(copy.parsed.header('list-unsubscribe-post'), undefined);
  });

  it("unsubscribe: { url } puts the sender's own https URL in both headers, the same for every recipient", async () => {
    const { token, send } = await liveKey();
    const url = 'https://acme.example/unsubscribe?list=news&u=42';
    const res = await send(message({ to: ['a@customer.test', 'b@customer.test'], unsubscribe: { url } }));
    assert.equal(res.status, 202, res.text);
    await settledEmail(world, token, res.body.id);
    const copies = await world.smtp.waitForMessages(1);
    assert.equal(copies.length, 1, 'one copy for both: nothing differs per recipient');
    assert.equal(copies[0].parsed.header('list-unsubscribe'), `<${url}>`);
    assert.equal(copies[0].parsed.header('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
  });

  it('unsubscribe must be true, false or { url? } with an https URL of printable characters', async () => {
    const { account, send } = await liveKey();
    assertFieldError(await send(message({ unsubscribe: 'yes' })), 'body.unsubscribe');
    assertFieldError(await send(message({ unsubscribe: { link: 'https://acme.example' } })), 'body.unsubscribe');
    for (const url of [
      'http://acme.example/unsub',
      'mailto:unsub@acme.example',
      'https://acme.example/a,b',
      'https://acme.example/a b',
      'https://acme.example/<x>',
      'not a url',
      `https://acme.example/${'x'.repeat(900)}`,
    ]) {
      assertFieldError(await send(message({ unsubscribe: { url } })), 'body.unsubscribe.url');
    }
    assert.deepEqual(await messageRows(account.accountId), []);
  });

  it('a batch message with unsubscribe on gets its links; the one without gets none', async () => {
    const { token } = await liveKey();
    const res = await world.app.call('POST', '/v1/email/batch', {
      token,
      body: [message({ to: 'with-link@customer.test', unsubscribe: true }), message({ to: 'without-link@customer.test' })],
    });
    assert.equal(res.status, 202, res.text);
    const copies = await world.smtp.waitForMessages(2);
    linkOf(copyFor(copies, 'with-link@customer.test'));
    assert.equal(copyFor(copies, 'without-link@customer.test').parsed.header('list-unsubscribe'), undefined);
  });

  it('a test key answers a send with unsubscribe on as simulated (200) and sends nothing', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: 'simulated@customer.test', unsubscribe: true }),
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'simulated');
    assert.ok(!world.smtp.messages.some((m) => m.envelope.to.includes('simulated@customer.test')));
  });

  it('a webhook endpoint may subscribe to email.unsubscribed', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { scopes: ['email:webhooks'] });
    const res = await world.app.call('POST', '/v1/email/webhooks', {
      token,
      body: { url: 'https://hooks.example.com/email', events: ['email.unsubscribed'] },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.events, ['email.unsubscribed']);
  });
});

describe('the unsubscribe option on a server without PUBLIC_APP_URL', () => {
  let world: SendWorld;
  before(async () => {
    // No worker: nothing here may reach the relay.
    world = await startSendWorld({ config: { PUBLIC_APP_URL: undefined }, temporal: {} });
  });
  after(async () => {
    await world?.close();
  });

  it('is refused with 422 unsubscribe_not_configured for live and test keys, and nothing is stored', async () => {
    const account = await senderAccount();
    for (const environment of ['live', 'test'] as const) {
      const { token } = await emailKey(account.accountId, { environment });
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ unsubscribe: true }) });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.code, 'unsubscribe_not_configured');
      assert.match(res.body.message, /PUBLIC_APP_URL/);
    }
    assert.deepEqual(await messageRows(account.accountId), []);
  });

  it("a batch message asking for links fails on its own with unsubscribe_not_configured; the sender's own url needs no public URL", async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const res = await world.app.call('POST', '/v1/email/batch', {
      token,
      body: [message({ unsubscribe: true }), message({ unsubscribe: { url: 'https://acme.example/unsub' } })],
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data[0].error.code, 'unsubscribe_not_configured');
    assert.equal(res.body.data[1].status, 'simulated');
  });
});
