import assert from 'node:assert/strict';
import { createTransport } from 'nodemailer';
import { startSmtpSandbox, type SmtpSandbox } from '../../../src/sandbox/smtp';

function client(url: string) {
  return createTransport({ url, connectionTimeout: 3_000, greetingTimeout: 3_000, socketTimeout: 3_000 });
}

describe('SMTP sandbox relay', () => {
  let smtp: SmtpSandbox;

  beforeEach(async () => {
    smtp = await startSmtpSandbox();
  });
  afterEach(async () => {
    await smtp.stop();
  });

  it('accepts any sender and recipient and records the envelope and the raw message', async () => {
    const info = await client(smtp.url).sendMail({
      from: 'a@one.test',
      to: ['b@two.test', 'C Person <c@three.test>'],
      bcc: 'd@four.test',
      subject: 'Hi there',
      text: 'plain body',
      html: '<p>html body</p>',
    });
    assert.match(String(info.response), /^250 .*queued as /);
    const [received] = await smtp.waitForMessages(1);
    assert.deepEqual(received.envelope, { from: 'a@one.test', to: ['b@two.test', 'c@three.test', 'd@four.test'] });
    assert.equal(received.parsed.header('subject'), 'Hi there');
    assert.equal(received.parsed.header('bcc'), undefined);
    assert.equal(received.parsed.text, 'plain body');
    assert.equal(received.parsed.html, '<p>html body</p>');
    assert.match(received.raw.toString(), /^Content-Type: multipart\/alternative/m);
  });

  it('decodes encoded headers and quoted-printable bodies', async () => {
    await client(smtp.url).sendMail({ from: 'a@one.test', to: 'b@two.test', subject: 'Grüße — ünïcode', text: `Größe ${'x'.repeat(100)}` });
    const [received] = await smtp.waitForMessages(1);
    assert.equal(received.parsed.header('subject'), 'Grüße — ünïcode');
    assert.equal(received.parsed.text, `Größe ${'x'.repeat(100)}`);
  });

  it('refuses a recipient, a sender or a message on demand with the given code', async () => {
    smtp.refuseNext('rcpt', { code: 550, message: 'No such user', recipient: 'gone@two.test' });
    const partial = await client(smtp.url).sendMail({
      from: 'a@one.test',
      to: ['gone@two.test', 'here@two.test'],
      subject: 's',
      text: 't',
    });
    assert.deepEqual(partial.rejected, ['gone@two.test']);
    assert.deepEqual((await smtp.waitForMessages(1))[0].envelope.to, ['here@two.test']);

    smtp.refuseNext('mail', { code: 553, message: 'Sender refused' });
    await assert.rejects(client(smtp.url).sendMail({ from: 'a@one.test', to: 'b@two.test', subject: 's', text: 't' }), {
      responseCode: 553,
    });

    smtp.refuseNext('data', { code: 554, message: 'Message refused' });
    await assert.rejects(client(smtp.url).sendMail({ from: 'a@one.test', to: 'b@two.test', subject: 's', text: 't' }), {
      responseCode: 554,
    });
    assert.equal(smtp.messages.length, 1, 'refused messages are not recorded');
  });

  it('delays its greeting on demand (a slow relay)', async () => {
    smtp.greetingDelayMs = 400;
    const started = Date.now();
    await client(smtp.url).sendMail({ from: 'a@one.test', to: 'b@two.test', subject: 's', text: 't' });
    assert.ok(Date.now() - started >= 390, `took ${Date.now() - started} ms`);
  });

  it('does not record a message whose client went away before the final dot', async () => {
    const { Readable } = await import('node:stream');
    let pushed = false;
    const cut = new Readable({
      read() {
        if (pushed) return this.destroy(new Error('client gave up'));
        pushed = true;
        this.push('Subject: cut\r\n\r\npartial body\r\n');
      },
    });
    await assert.rejects(client(smtp.url).sendMail({ envelope: { from: 'a@one.test', to: ['b@two.test'] }, raw: cut }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(smtp.messages.length, 0);
  });
});

describe('SMTP sandbox relay with AUTH', () => {
  it('requires the configured credentials, which its url carries', async () => {
    const smtp = await startSmtpSandbox({ auth: { user: 'relay-user', pass: 'p@ss word' } });
    try {
      assert.match(smtp.url, /^smtp:\/\/relay-user:p%40ss%20word@127\.0\.0\.1:\d+$/);
      await client(smtp.url).sendMail({ from: 'a@one.test', to: 'b@two.test', subject: 's', text: 't' });
      assert.equal((await smtp.waitForMessages(1))[0].user, 'relay-user');
      await assert.rejects(
        client(`smtp://relay-user:wrong@127.0.0.1:${smtp.port}`).sendMail({
          from: 'a@one.test',
          to: 'b@two.test',
          subject: 's',
          text: 't',
        }),
        { code: 'EAUTH' },
      );
      await assert.rejects(
        client(`smtp://127.0.0.1:${smtp.port}`).sendMail({ from: 'a@one.test', to: 'b@two.test', subject: 's', text: 't' }),
      );
    } finally {
      await smtp.stop();
    }
  });
});
