import assert from 'node:assert/strict';
import { flushUsage } from '../../../src/email/usage/record';
import { startSmtpSandbox } from '../../../src/sandbox/smtp';
import { harness } from '../../helpers/harness';
import { eventually } from '../../jobs/jobTestKit';
import {
  emailKey,
  eventRows,
  FROM,
  message,
  messageRows,
  SENDER_DOMAIN,
  senderAccount,
  settledEmail,
  startSendWorld,
  type SendWorld,
  useSendWorld,
} from './kit';

describe('POST /v1/email/send with a live key', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  it('a live send is accepted (202 queued, each recipient listed) and received by the SMTP relay with its envelope, headers and text and html parts', async () => {
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
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.object, 'email');
    assert.equal(res.body.status, 'queued');
    assert.deepEqual(res.body.recipients, [
      { email: 'jane@customer.test', type: 'to', state: 'queued' },
      { email: 'bob@customer.test', type: 'to', state: 'queued' },
      { email: 'carol@partner.test', type: 'cc', state: 'queued' },
      { email: 'audit@acme.test', type: 'bcc', state: 'queued' },
    ]);
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
    assert.equal(res.status, 202, res.text);
    const [received] = await world.smtp.waitForMessages(1);
    assert.ok(received.envelope.to.includes('secret-watcher@acme.test'));
    assert.equal(received.parsed.header('bcc'), undefined);
    assert.ok(!received.raw.toString().includes('secret-watcher'), 'the bcc address appears nowhere in the message');
  });

  it('a delivered live send is stored as sent, each recipient sent, with an email.sent event, and counts as a send of the key', async () => {
    const account = await senderAccount();
    const { token, id: keyId } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ tags: [{ name: 'category', value: 'invoice' }] }),
    });
    assert.equal(res.status, 202, res.text);
    const settled = await settledEmail(world, token, res.body.id);
    assert.equal(settled.body.status, 'sent');
    assert.equal(settled.body.attempts, 1);
    assert.deepEqual(
      settled.body.recipients.map((r: { email: string; state: string }) => [r.email, r.state]),
      [['jane@customer.test', 'sent']],
    );

    const [row] = await messageRows(account.accountId);
    assert.equal(row.id, res.body.id);
    assert.equal(row.key_id, keyId);
    assert.equal(row.smtp_message_id, res.body.messageId);
    assert.deepEqual(row.tags, [{ name: 'category', value: 'invoice' }]);
    assert.ok(row.sent_at);
    assert.equal(row.payload, null, 'the body is not kept once every recipient has its outcome');

    const [event] = await eventRows(account.accountId);
    assert.equal(event.type, 'email.sent');
    assert.equal(event.data.email_id, res.body.id);
    assert.equal(event.data.message_id, res.body.messageId);
    assert.deepEqual(event.data.to, ['jane@customer.test']);
    assert.deepEqual(event.data.recipients, ['jane@customer.test']);
    assert.deepEqual(event.data.tags, [{ name: 'category', value: 'invoice' }]);

    await flushUsage();
    const usage = await harness().db('email_key_usage_daily').where({ key_id: keyId }).first();
    assert.equal(usage?.sends, 1);
  });

  it('a message the relay refuses after its data (5xx) fails with smtp_rejected and the relay code, and nobody is suppressed', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('data', { code: 554, message: '5.7.1 Message rejected as spam' });
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(res.status, 202, res.text);
    const settled = await settledEmail(world, token, res.body.id);
    assert.equal(settled.body.status, 'failed');
    assert.equal(settled.body.error_code, 'smtp_rejected');
    assert.equal(settled.body.recipients[0].state, 'failed');
    assert.equal(settled.body.recipients[0].detail.smtp_code, 554);
    assert.equal(world.smtp.messages.length, 0);
    const events = await eventRows(account.accountId);
    assert.deepEqual(
      events.map((e) => e.type),
      ['email.failed'],
    );
    assert.equal(events[0].data.error.code, 'smtp_rejected');
    assert.equal(events[0].data.error.smtp_code, 554);
    assert.equal(await harness().db('email_suppressions').where({ account_id: account.accountId }).first(), undefined);
  });

  it('a recipient the relay refuses at RCPT (5xx) bounces and is suppressed; the others are delivered', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('rcpt', { code: 550, message: '5.1.1 User unknown', recipient: 'gone@customer.test' });
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: ['gone@customer.test', 'here@customer.test'] }),
    });
    assert.equal(res.status, 202, res.text);
    const settled = await settledEmail(world, token, res.body.id);
    assert.equal(settled.body.status, 'sent');
    const states = Object.fromEntries(settled.body.recipients.map((r: { email: string; state: string }) => [r.email, r]));
    assert.equal(states['here@customer.test'].state, 'sent');
    assert.equal(states['gone@customer.test'].state, 'bounced');
    assert.equal(states['gone@customer.test'].detail.smtp_code, 550);
    assert.equal(states['gone@customer.test'].detail.status, '5.1.1');
    assert.deepEqual((await world.smtp.waitForMessages(1))[0].envelope.to, ['here@customer.test']);

    const events = await eventRows(account.accountId);
    const bounced = events.find((e) => e.type === 'email.bounced');
    assert.ok(bounced, 'an email.bounced event');
    assert.equal(bounced.data.recipient, 'gone@customer.test');
    assert.equal(bounced.data.bounce_type, 'hard');
    assert.equal(bounced.data.status, '5.1.1');
    assert.match(bounced.data.diagnostic_code, /User unknown/);
    assert.deepEqual(events.find((e) => e.type === 'email.sent')?.data.recipients, ['here@customer.test']);
    const suppression = await harness().db('email_suppressions').where({ account_id: account.accountId }).first();
    assert.equal(suppression?.email, 'gone@customer.test');
    assert.equal(suppression?.reason, 'bounce');
  });

  it('a message whose every recipient is refused at RCPT fails with the relay code', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    world.smtp.refuseNext('rcpt', { code: 550, message: '5.1.1 User unknown' }, 2);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ to: ['a@customer.test', 'b@customer.test'] }) });
    assert.equal(res.status, 202, res.text);
    const settled = await settledEmail(world, token, res.body.id);
    assert.equal(settled.body.status, 'failed');
    assert.equal(settled.body.error_code, 'smtp_rejected');
    const failed = (await eventRows(account.accountId)).find((e) => e.type === 'email.failed');
    assert.equal(failed?.data.error.smtp_code, 550);
    assert.equal(failed?.data.error.status, '5.1.1');
  });
});

describe('POST /v1/email/send through a relay that needs AUTH, defers or is down', () => {
  it('the SMTP_URL credentials authenticate to the relay', async () => {
    const world = await startSendWorld({ smtp: { auth: { user: 'workyard', pass: 's3cret' } } });
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assert.equal(res.status, 202, res.text);
      assert.equal((await world.smtp.waitForMessages(1))[0].user, 'workyard');
    } finally {
      await world.close();
    }
  });

  it('a relay 4xx defers the message: email.delivery_delayed after the first failed attempt, then delivered once', async () => {
    const world = await startSendWorld({ config: { EMAIL_RETRY_INITIAL_SECONDS: 1 } });
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      world.smtp.refuseNext('mail', { code: 451, message: '4.3.0 Try again later' });
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assert.equal(res.status, 202, res.text);
      const settled = await settledEmail(world, token, res.body.id);
      assert.equal(settled.body.status, 'sent');
      assert.equal(settled.body.attempts, 2);
      assert.equal(world.smtp.messages.length, 1);
      const types = (await eventRows(account.accountId)).map((e) => e.type);
      assert.deepEqual(types, ['email.delivery_delayed', 'email.sent']);
      const [delayed] = await eventRows(account.accountId);
      assert.equal(delayed.data.smtp_code, 451);
      assert.equal(delayed.data.recipient, 'jane@customer.test');
    } finally {
      await world.close();
    }
  });

  it('a relay outage: the send is accepted and delivered once when the relay is back', async () => {
    const down = await startSmtpSandbox();
    const { port, url } = down;
    await down.stop();
    const world = await startSendWorld({ config: { SMTP_URL: url, EMAIL_RETRY_INITIAL_SECONDS: 1, EMAIL_RETRY_MAX_SECONDS: 1 } });
    let back: Awaited<ReturnType<typeof startSmtpSandbox>> | undefined;
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assert.equal(res.status, 202, res.text);
      const deferred = await eventually(
        () => world.app.call('GET', `/v1/email/emails/${res.body.id}`, { token }),
        (r) => r.body.status === 'deferred',
        20_000,
        'the email to be deferred',
      );
      assert.equal(deferred.body.recipients[0].state, 'deferred');
      assert.ok(!JSON.stringify(deferred.body).includes(String(port)), 'the relay address is not disclosed');
      back = await startSmtpSandbox({ port });
      const settled = await settledEmail(world, token, res.body.id);
      assert.equal(settled.body.status, 'sent');
      assert.equal(back.messages.length, 1);
      assert.deepEqual(
        (await eventRows(account.accountId)).map((e) => e.type),
        ['email.delivery_delayed', 'email.sent'],
      );
    } finally {
      await world.close();
      await back?.stop();
    }
  });

  it('a message still deferred when its delivery time runs out fails with delivery_expired', async () => {
    const world = await startSendWorld({ config: { EMAIL_RETRY_INITIAL_SECONDS: 1, EMAIL_DELIVERY_MAX_AGE_SECONDS: 2 } });
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      world.smtp.refuseNext('mail', { code: 421, message: '4.3.2 Service shutting down' }, 100);
      const res = await world.app.call('POST', '/v1/email/send', { token, body: message() });
      assert.equal(res.status, 202, res.text);
      const settled = await settledEmail(world, token, res.body.id);
      assert.equal(settled.body.status, 'failed');
      assert.equal(settled.body.error_code, 'delivery_expired');
      assert.equal(settled.body.recipients[0].state, 'failed');
      assert.equal(world.smtp.messages.length, 0);
      const types = (await eventRows(account.accountId)).map((e) => e.type);
      assert.deepEqual(types, ['email.delivery_delayed', 'email.failed']);
    } finally {
      await world.close();
    }
  });

  it('with a return path, each recipient gets its own transaction and its own tagged envelope sender, which never names the recipient', async () => {
    const world = await startSendWorld({ config: { EMAIL_RETURN_PATH_DOMAIN: 'returns.workyard.test' } });
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId);
      const res = await world.app.call('POST', '/v1/email/send', {
        token,
        body: message({ to: ['alpha.reader@customer.test', 'beta.reader@customer.test'] }),
      });
      assert.equal(res.status, 202, res.text);
      const received = await world.smtp.waitForMessages(2);
      assert.deepEqual(
        received.map((m) => m.envelope.to.length),
        [1, 1],
      );
      const senders = received.map((m) => m.envelope.from);
      assert.notEqual(senders[0], senders[1]);
      for (const [i, sender] of senders.entries()) {
        assert.match(sender, /^b\+[0-9a-f]{32}\.[a-z2-7]+\.[a-z2-7]+@returns\.workyard\.test$/i);
        assert.ok(
          !sender.includes('reader') && !sender.includes('customer'),
          `the return path does not name its recipient (${received[i].envelope.to[0]})`,
        );
      }
    } finally {
      await world.close();
    }
  });
});
