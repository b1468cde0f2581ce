import assert from 'node:assert/strict';
import { flushUsage } from '../../../src/email/usage/record';
import { startSmtpSandbox } from '../../../src/sandbox/smtp';
import { harness } from '../../helpers/harness';
import { assertError } from '../../marketing/grounding/fixtures';
import {
  emailKey,
  eventRows,
  FROM,
  message,
  messageRows,
  SENDER_DOMAIN,
  senderAccount,
  startSendWorld,
  type SendWorld,
  useSendWorld,
} from './kit';

describe('POST /v1/email/send with a live key', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  it('a live send is received by the SMTP relay with its envelope, headers and text and html parts', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({
        to: ['Jane Doe <jane@customer.test>', 'bob@customer.test'],
        cc: 'carol@partner.test',
        bcc: ['audit@acme.test'],
        reply_to: 'help@mail.example.test',
        subject: 'Your invoice #42',
        text: 'Plain invoice text',
        html: '<p>HTML <b>invoice</b></p>',
        headers: { 'X-Campaign': 'spring-2026', 'List-Unsubscribe': '<mailto:unsub@mail.example.test>' },
      }),
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.object, 'email');
    assert.equal(res.body.status, 'sent');
    assert.equal(res.body.test, false);
    assert.equal(res.body.from, FROM);
    assert.deepEqual(res.body.to, ['Jane Doe <jane@customer.test>', 'bob@customer.test']);
    assert.match(res.body.messageId, new RegExp(`^<${res.body.id}@${SENDER_DOMAIN.replace(/\./g, '\\.')}>$`));
    assert.ok(!Number.isNaN(Date.parse(res.body.created_at)));
    assert.ok(res.headers.get('ratelimit-limit'));

    const [received] = await world.smtp.waitForMessages(1);
    assert.deepEqual(received.envelope, {
      from: `support@${SENDER_DOMAIN}`,
      to: ['jane@customer.test', 'bob@customer.test', 'carol@partner.test', 'audit@acme.test'],
    });
    const mail = received.parsed;
    assert.equal(mail.header('from'), FROM);
    assert.equal(mail.header('to'), 'Jane Doe <jane@customer.test>, bob@customer.test');
    assert.equal(mail.header('cc'), 'carol@partner.test');
    assert.equal(mail.header('reply-to'), 'help@mail.example.test');
    assert.equal(mail.header('subject'), 'Your invoice #42');
    assert.equal(mail.header('message-id'), res.body.messageId);
    assert.equal(mail.header('x-campaign'), 'spring-2026');
    assert.equal(mail.header('list-unsubscribe'), '<mailto:unsub@mail.example.test>');
    assert.equal(mail.text, 'Plain invoice text');
    assert.equal(mail.html, '<p>HTML <b>invoice</b></p>');
  });

  it('bcc recipients are in the envelope only, never in the headers', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ bcc: 'secret-watcher@acme.test' }) });
    assert.equal(res.status, 200, res.text);
    const [received] = await world.smtp.waitForMessages(1);
    assert.ok(received.envelope.to.includes('secret-watcher@acme.test'));
    assert.equal(received.parsed.header('bcc'), undefined);
    assert.ok(!received.raw.toString().includes('secret-watcher'), 'the bcc address appears nowhere in the message');
  });

  it('a live send is stored as sent with an email.sent event and counts as a send of the key', async () => {
    const account = await senderAccount();
    const { token, id: keyId } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ tags: [{ name: 'category', value: 'invoice' }] }),
    });
    assert.equal(res.status, 200, res.text);

    const [row] = await messageRows(account.accountId);
    assert.equal(row.id, res.body.id);
    assert.equal(row.status, 'sent');
    assert.equal(row.key_id, keyId);
    assert.equal(row.smtp_message_id, res.body.messageId);
    assert.deepEqual(row.to_addresses, ['jane@customer.test']);
    assert.deepEqual(row.tags, [{ name: 'category', value: 'invoice' }]);
    assert.ok(row.sent_at);

    const [event] = await eventRows(account.accountId);
    assert.equal(event.type, 'email.sent');
    assert.equal(event.data.email_id, res.body.id);
    assert.equal(event.data.message_id, res.body.messageId);
    assert.deepEqual(event.data.to, ['jane@customer.test']);
    assert.deepEqual(event.data.tags, [{ name: 'category', value: 'invoice' }]);

    await flushUsage();
    const usage = await harness().db('email_key_usage_daily').where({ key_id: keyId }).first();
    assert.equal(usage?.sends, 1);
  });

  it('a message the relay refuses answers 502 smtp_rejected, is stored as failed and emits email.failed', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('data', { code: 554, message: 'Message rejected as spam' });
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assertError(res, 502, 'smtp_rejected');
    assert.equal(res.body.smtp_code, 554);
    assert.equal(world.smtp.messages.length, 0);

    const [row] = await messageRows(account.accountId);
    assert.equal(row.id, res.body.id);
    assert.equal(row.status, 'failed');
    assert.equal(row.error_code, 'smtp_rejected');
    const [event] = await eventRows(account.accountId);
    assert.equal(event.type, 'email.failed');
    assert.equal(event.data.email_id, res.body.id);
    assert.deepEqual(event.data.error, { code: 'smtp_rejected', message: res.body.message, smtp_code: 554 });
  });

  it('a recipient the relay refuses while it takes the message for the others: sent, and email.sent names the refused one', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('rcpt', { code: 550, message: 'No such user', recipient: 'gone@customer.test' });
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: ['gone@customer.test', 'here@customer.test'] }),
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual((await world.smtp.waitForMessages(1))[0].envelope.to, ['here@customer.test']);
    const [event] = await eventRows(account.accountId);
    assert.equal(event.type, 'email.sent');
    assert.deepEqual(event.data.rejected_recipients, ['gone@customer.test']);
  });

  it('a sender the relay refuses answers 502 smtp_rejected', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('mail', { code: 550, message: 'Sender not allowed' });
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assertError(res, 502, 'smtp_rejected');
    assert.equal(res.body.smtp_code, 550);
  });
});

describe('POST /v1/email/send through a relay that needs AUTH or is down', () => {
  it('the SMTP_URL credentials authenticate to the relay', async () => {
    const world = await startSendWorld({ smtp: { auth: { user: 'workyard', pass: 's3cret' } } });
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assert.equal(res.status, 200, res.text);
      assert.equal((await world.smtp.waitForMessages(1))[0].user, 'workyard');
    } finally {
      await world.close();
    }
  });

  it('an unreachable relay answers 502 smtp_unavailable and the message is stored as failed', async () => {
    const down = await startSmtpSandbox();
    const url = down.url;
    await down.stop();
    const world = await startSendWorld({ config: { SMTP_URL: url } });
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assertError(res, 502, 'smtp_unavailable');
      assert.ok(!res.text.includes(url), 'the relay address is not disclosed');
      const [row] = await messageRows(account.accountId);
      assert.equal(row.status, 'failed');
      assert.equal(row.error_code, 'smtp_unavailable');
    } finally {
      await world.close();
    }
  });
});
