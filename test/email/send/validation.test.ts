import assert from 'node:assert/strict';
import { call } from '../../helpers/http';
import { assertError, assertFieldError } from '../../marketing/grounding/fixtures';
import { emailKey, message, messageRows, senderAccount, settledEmail, startSendWorld } from './kit';

describe('POST /v1/email/send: validation', () => {
  let token: string;

  before(async () => {
    const account = await senderAccount();
    ({ token } = await emailKey(account.accountId, { environment: 'test' }));
  });

  const send = (body: unknown) => call('POST', '/v1/email/send', { token, body });

  it('from is required and must be "a@b.c" or "Name <a@b.c>"', async () => {
    const { from: _omit, ...withoutFrom } = message();
    assertFieldError(await send(withoutFrom), 'body.from');
    for (const from of [
      'not-an-address',
      'a@localhost',
      'a@192.168.1.10',
      'Name <a@mail.example.test',
      'a b@mail.example.test',
      '.a@mail.example.test',
      'a@-bad-.test',
      42,
    ]) {
      assertFieldError(await send(message({ from })), 'body.from');
    }
  });

  it('an address with a line break is refused (no header injection)', async () => {
    assertFieldError(await send(message({ from: 'Eve <eve@mail.example.test>\r\nBcc: victim@x.test' })), 'body.from');
    assertFieldError(await send(message({ to: 'a@customer.test\nBcc: victim@x.test' })), 'body.to');
  });

  it('to is required: one address or a list of 1 or more, each checked at its index', async () => {
    const { to: _omit, ...withoutTo } = message();
    assertFieldError(await send(withoutTo), 'body.to');
    assertFieldError(await send(message({ to: [] })), 'body.to');
    assertFieldError(await send(message({ to: 7 })), 'body.to');
    assertFieldError(await send(message({ to: ['ok@customer.test', 'broken'] })), 'body.to.1');
    assertFieldError(await send(message({ cc: ['fine@customer.test', 'nope'] })), 'body.cc.1');
    assertFieldError(await send(message({ bcc: 'nope' })), 'body.bcc');
    assertFieldError(await send(message({ reply_to: ['nope'] })), 'body.reply_to.0');
  });

  it('at most 50 recipients across to, cc and bcc', async () => {
    const list = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}@customer.test`);
    assert.equal((await send(message({ to: list(20, 't'), cc: list(20, 'c'), bcc: list(10, 'b') }))).status, 200);
    assertFieldError(await send(message({ to: list(20, 't'), cc: list(20, 'c'), bcc: list(11, 'b') })), 'body.to');
    assertFieldError(await send(message({ to: list(51, 't') })), 'body.to');
  });

  it('subject is required (1..998 characters, no line breaks) unless a template gives it', async () => {
    const { subject: _omit, ...withoutSubject } = message();
    assertFieldError(await send(withoutSubject), 'body.subject');
    assertFieldError(await send(message({ subject: '' })), 'body.subject');
    assertFieldError(await send(message({ subject: 'x'.repeat(999) })), 'body.subject');
    assertFieldError(await send(message({ subject: 'Hi\r\nBcc: victim@x.test' })), 'body.subject');
    assert.equal((await send(message({ subject: 'x'.repeat(998) }))).status, 200);
  });

  it('html or text (or a template) is required, and a template excludes html and text', async () => {
    assertFieldError(await send(message({ text: undefined })), 'body.html');
    assertFieldError(await send(message({ text: '' })), 'body.text');
    assertFieldError(await send(message({ template: { name: 'welcome' } })), 'body.template');
    assertFieldError(await send(message({ text: undefined, template: { id: 'x', name: 'y' } })), 'body.template.id');
    assert.equal((await send(message({ text: undefined, html: '<p>only html</p>' }))).status, 200);
  });

  it('custom headers: names are tokens, values have no line breaks, reserved names are refused', async () => {
    assertFieldError(await send(message({ headers: { 'Bad Header': 'x' } })), 'body.headers.Bad Header');
    assertFieldError(await send(message({ headers: { 'X-Bad:Colon': 'x' } })), 'body.headers.X-Bad:Colon');
    assertFieldError(await send(message({ headers: { 'X-Inject': 'a\r\nBcc: victim@x.test' } })), 'body.headers.X-Inject');
    assertFieldError(await send(message({ headers: { 'X-Inject': 'a\nb' } })), 'body.headers.X-Inject');
    for (const reserved of ['Subject', 'from', 'TO', 'Bcc', 'Content-Type', 'Message-ID', 'Reply-To', 'MIME-Version']) {
      assertFieldError(await send(message({ headers: { [reserved]: 'x' } })), `body.headers.${reserved}`);
    }
    assertFieldError(await send(message({ headers: { 'X-Num': 5 } })), 'body.headers.X-Num');
    assertFieldError(await send(message({ headers: { 'X-Dup': 'a', 'x-dup': 'b' } })), 'body.headers.x-dup');
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v']));
    assertFieldError(await send(message({ headers: tooMany })), 'body.headers');
    assert.equal((await send(message({ headers: { 'X-Entity-Ref-ID': 'abc 123', 'List-Unsubscribe': '<mailto:u@x.test>' } }))).status, 200);
  });

  it('tags: at most 50 { name, value } of ASCII letters, digits, _ and -', async () => {
    assertFieldError(await send(message({ tags: [{ name: 'has space', value: 'x' }] })), 'body.tags.0.name');
    assertFieldError(await send(message({ tags: [{ name: 'ok', value: 'é' }] })), 'body.tags.0.value');
    assertFieldError(await send(message({ tags: [{ name: 'ok' }] })), 'body.tags.0.value');
    assertFieldError(
      await send(
        message({
          tags: [
            { name: 'a', value: '1' },
            { name: 'a', value: '2' },
          ],
        }),
      ),
      'body.tags.1.name',
    );
    assertFieldError(await send(message({ tags: Array.from({ length: 51 }, (_, i) => ({ name: `t${i}`, value: 'v' })) })), 'body.tags');
    assert.equal((await send(message({ tags: [{ name: 'category_1', value: 'welcome-email' }] }))).status, 200);
  });

  it('unknown fields and bodies that are not a JSON object are refused', async () => {
    assertFieldError(await send(message({ not_a_field: true })), 'body');
    assertError(await send([message()]), 400, 'validation_failed');
    assertError(
      await call('POST', '/v1/email/send', { token, rawBody: '{"from":', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
  });

  it('null stands for an absent optional field', async () => {
    assert.equal(
      (await send(message({ cc: null, bcc: null, reply_to: null, html: null, headers: null, tags: null, template: null }))).status,
      200,
    );
  });
});

describe('POST /v1/email/send: a refused request changes nothing', () => {
  it('validation errors change nothing: no delivery, no stored message, no rate limit used', async () => {
    const world = await startSendWorld();
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId, { ratePerSecond: 1, dailyCap: 1 });
      for (const body of [
        message({ to: 'broken' }),
        message({ subject: '' }),
        message({ headers: { Subject: 'x' } }),
        { nonsense: true },
      ]) {
        assertError(await world.app.call('POST', '/v1/email/send', { token, body }), 400, 'validation_failed');
      }
      assert.equal(world.smtp.connections, 0);
      assert.deepEqual(await messageRows(account.accountId), []);
      // The per-second limit (1) and the daily cap (1) are both still whole.
      const accepted = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assert.equal(accepted.status, 202, accepted.text);
      assert.equal((await settledEmail(world, token, accepted.body.id)).body.status, 'sent');
    } finally {
      await world.close();
    }
  });
});
