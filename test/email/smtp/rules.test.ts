import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { eventually } from '../../jobs/jobTestKit';
import {
  assertRefused,
  client,
  emailKey,
  mail,
  messageRows,
  senderAccount,
  sleep,
  startSmtpWorld,
  submit,
  verifiedDomain,
  type SmtpWorld,
} from './kit';

describe('SMTP submission: the REST rules', () => {
  let world: SmtpWorld;
  before(async () => {
    world = await startSmtpWorld({ SMTP_SUBMISSION_MAX_BYTES: 4096 });
  });
  after(async () => {
    await world.close();
  });
  beforeEach(() => world.smtp.reset());

  it('a key revoked mid-DATA is refused at the end of DATA (550 5.7.8) and nothing is delivered', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId);
    const raw = new PassThrough();
    raw.write('From: support@mail.example.test\r\nTo: jane@customer.test\r\nSubject: Hi\r\n\r\nfirst half\r\n');
    const transport = client(world, token);
    const sending = transport.sendMail({ envelope: { from: 'support@mail.example.test', to: ['jane@customer.test'] }, raw }).then(
      () => null,
      (err: { responseCode?: number; response?: string }) => err,
    );
    // The server is reading DATA once the first half has been consumed.
    await eventually(
      async () => raw.readableLength,
      (n) => n === 0 && raw.readableFlowing === true,
      5_000,
      'DATA under way',
    );
    const res = await world.app.call('POST', `/api/email/keys/${id}/revoke`, { token: account.ownerToken });
    assert.equal(res.status, 200, res.text);
    raw.end('second half\r\n');
    const refused = await sending;
    transport.close();
    assert.ok(refused, 'the message was accepted');
    assert.equal(refused.responseCode, 550, refused.response);
    assert.match(refused.response ?? '', /^550 5\.7\.8 api_key_revoked/);
    await sleep(200);
    assert.equal(world.smtp.messages.length, 0);
    assert.deepEqual(await messageRows(account.accountId), []);
  });

  it('the per-second limit answers 451 4.7.1 (temporary) with the retry time', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test', ratePerSecond: 1 });
    const transport = client(world, token, { pool: true, maxConnections: 1 });
    try {
      await transport.sendMail(mail());
      const refused = await transport.sendMail(mail()).then(
        () => assert.fail('a second send in the same second was admitted'),
        (err: { responseCode?: number; response?: string }) => err,
      );
      assert.equal(refused.responseCode, 451, refused.response);
      assert.match(refused.response ?? '', /^451 4\.7\.1 rate_limit_exceeded: .*retry in \d+ s/);
    } finally {
      transport.close();
    }
  });

  it('the daily cap answers 451 4.7.1 daily_quota_exceeded', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { dailyCap: 1 });
    assert.ok((await submit(world, token, mail())).ok);
    assertRefused(await submit(world, token, mail()), 451, '4.7.1', 'daily_quota_exceeded');
    await world.smtp.waitForMessages(1);
    await sleep(300);
    assert.equal(world.smtp.messages.length, 1);
  });

  it('an unverified sender domain or one outside the key allowlist is 550 5.7.1 at MAIL FROM', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    assertRefused(await submit(world, token, mail({ from: 'a@unverified.example.test' })), 550, '5.7.1', 'domain_not_verified');
    await verifiedDomain(account.accountId, 'brand.example.test');
    const { token: limited } = await emailKey(account.accountId, { environment: 'test', allowedDomains: ['brand.example.test'] });
    assertRefused(await submit(world, limited, mail()), 550, '5.7.1', 'domain_not_allowed');
  });

  it('MAIL FROM and the From header must share a domain (550 5.7.1 sender_mismatch)', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const refused = await submit(world, token, mail({ envelope: { from: 'bounce@other.example.test', to: ['jane@customer.test'] } }));
    assertRefused(refused, 550, '5.7.1');
  });

  it('more than 50 envelope recipients: the 51st is 452 4.5.3', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const to = Array.from({ length: 51 }, (_, i) => `r${i}@customer.test`);
    const result = await submit(world, token, mail({ to: to[0], bcc: to.slice(1) }));
    // nodemailer sends to the accepted ones and reports the refused recipient.
    assert.ok(result.ok, result.response);
    const info = result.info as { rejected: string[]; rejectedErrors?: Array<{ responseCode?: number; response?: string }> };
    assert.deepEqual(info.rejected, ['r50@customer.test']);
    assert.equal(info.rejectedErrors?.[0].responseCode, 452);
    assert.match(info.rejectedErrors?.[0].response ?? '', /^452 4\.5\.3 too_many_recipients/);
  });

  it('a header the rules refuse is 554 5.6.0 validation_failed', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const refused = await submit(world, token, mail({ headers: { 'DKIM-Signature': 'v=1; forged' } }));
    assertRefused(refused, 554, '5.6.0', 'validation_failed');
    assert.match(refused.response, /DKIM-Signature is set by the service/);
  });

  it('a message over SMTP_SUBMISSION_MAX_BYTES is 552 (SIZE)', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const big = await submit(world, token, mail({ text: 'x'.repeat(10_000) }));
    assert.equal(big.ok, false);
    if (!big.ok) assert.equal(big.code, 552, big.response);
    // Without a SIZE parameter, the end of DATA refuses it.
    const raw = `From: support@mail.example.test\r\nTo: jane@customer.test\r\nSubject: Hi\r\n\r\n${'y'.repeat(10_000)}\r\n`;
    const streamed = await submit(world, token, {
      envelope: { from: 'support@mail.example.test', to: ['jane@customer.test'] },
      raw: PassThrough.from([raw]),
    });
    assertRefused(streamed, 552, '5.3.4', 'message_too_big');
  });

  it('a message that is not MIME (no header section, no From) is 554 5.6.0', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const refused = await submit(world, token, {
      envelope: { from: 'support@mail.example.test', to: ['jane@customer.test'] },
      raw: 'this is not a mime message at all\r\n',
    });
    assertRefused(refused, 554, '5.6.0', 'unparseable_message');
  });
});
