import assert from 'node:assert/strict';
import { addSuppression } from '../../../src/email/suppressions/service';
import { harness } from '../../helpers/harness';
import {
  assertRefused,
  authedDialogue,
  emailKey,
  eventRows,
  idOf,
  mail,
  messageRows,
  senderAccount,
  startSmtpWorld,
  submit,
  type SmtpWorld,
} from './kit';

const SENDER = 'support@mail.example.test';

describe('SMTP submission: the envelope', () => {
  let world: SmtpWorld;
  before(async () => {
    world = await startSmtpWorld();
  });
  after(async () => {
    await world.close();
  });
  beforeEach(() => world.smtp.reset());

  async function testKey() {
    const account = await senderAccount();
    return (await emailKey(account.accountId, { environment: 'test' })).token;
  }

  it('only envelope recipients count toward the 50: after 452 4.5.3 the rest of a 60-address To list goes through in a second transaction', async () => {
    const token = await testKey();
    const everyone = Array.from({ length: 60 }, (_, i) => `r${i}@customer.test`);
    const first = await submit(world, token, mail({ to: everyone, envelope: { from: SENDER, to: everyone.slice(0, 51) } }));
    assert.ok(first.ok, first.response);
    const info = first.info as { rejected: string[]; rejectedErrors?: Array<{ response?: string }> };
    assert.deepEqual(info.rejected, ['r50@customer.test']);
    assert.match(info.rejectedErrors?.[0].response ?? '', /^452 4\.5\.3 too_many_recipients/);
    const rest = await submit(world, token, mail({ to: everyone, envelope: { from: SENDER, to: everyone.slice(50) } }));
    assert.ok(rest.ok, `the second transaction was refused: ${rest.response}`);
    assert.match(rest.response, /^250 2\.0\.0 OK id=/);
  });

  it('an address a To or Cc header shows is still checked as an address (554 5.6.0 validation_failed)', async () => {
    const token = await testKey();
    const refused = await submit(world, token, {
      envelope: { from: SENDER, to: ['jane@customer.test'] },
      raw: `From: ${SENDER}\r\nTo: jane@customer.test, bad@@customer.test\r\nSubject: Hi\r\n\r\nHello\r\n`,
    });
    assertRefused(refused, 554, '5.6.0', 'validation_failed');
    assert.match(refused.response, /message\.to\.1/);
  });

  it('an unknown MAIL or RCPT parameter is 555 5.5.4; SIZE and BODY are taken', async () => {
    const { dialogue } = await authedDialogue(world, await testKey());
    try {
      const unknownMail = await dialogue.command(`MAIL FROM:<${SENDER}> X-TRACK=yes`);
      assert.equal(unknownMail.code, 555, unknownMail.lines.join(' | '));
      assert.match(unknownMail.lines[0], /^5\.5\.4 unsupported_parameter: X-TRACK is not a MAIL parameter/);
      const known = await dialogue.command(`MAIL FROM:<${SENDER}> SIZE=200 BODY=8BITMIME`);
      assert.equal(known.code, 250, known.lines.join(' | '));
      for (const parameter of ['NOTIFY=SUCCESS', 'ORCPT=rfc822;jane@customer.test', 'X-LIST']) {
        const unknownRcpt = await dialogue.command(`RCPT TO:<jane@customer.test> ${parameter}`);
        assert.equal(unknownRcpt.code, 555, `${parameter}: ${unknownRcpt.lines.join(' | ')}`);
        assert.match(unknownRcpt.lines[0], /^5\.5\.4 unsupported_parameter: /);
      }
      assert.equal((await dialogue.command('RCPT TO:<jane@customer.test>')).code, 250);
    } finally {
      dialogue.close();
    }
  });

  it('REQUIRETLS is not advertised, and a MAIL asking for it is 555 5.5.4', async () => {
    const { dialogue, ehlo } = await authedDialogue(world, await testKey());
    try {
      assert.ok(!ehlo.lines.some((l) => /^REQUIRETLS\b/i.test(l)), ehlo.lines.join(' | '));
      const refused = await dialogue.command(`MAIL FROM:<${SENDER}> REQUIRETLS`);
      assert.equal(refused.code, 555, refused.lines.join(' | '));
      assert.match(refused.lines[0], /^5\.5\.4 unsupported_parameter: REQUIRETLS \(RFC 8689\) is not offered/);
    } finally {
      dialogue.close();
    }
  });

  it('SMTPUTF8 is not advertised: a MAIL with SMTPUTF8 is 555 5.5.4 and a UTF-8 address is 553 5.1.3', async () => {
    const { dialogue, ehlo } = await authedDialogue(world, await testKey());
    try {
      assert.ok(!ehlo.lines.some((l) => /^SMTPUTF8\b/i.test(l)), ehlo.lines.join(' | '));
      const refused = await dialogue.command(`MAIL FROM:<${SENDER}> SMTPUTF8`);
      assert.equal(refused.code, 555, refused.lines.join(' | '));
      assert.match(refused.lines[0], /^5\.5\.4 unsupported_parameter: SMTPUTF8 /);
      assert.equal((await dialogue.command(`MAIL FROM:<${SENDER}>`)).code, 250);
      const utf8 = await dialogue.command('RCPT TO:<j\u00f6rg@customer.test>');
      assert.equal(utf8.code, 553, utf8.lines.join(' | '));
      assert.match(utf8.lines[0], /^5\.1\.3 invalid_recipient/);
    } finally {
      dialogue.close();
    }
  });

  it('EHLO advertises ENHANCEDSTATUSCODES (not DSN) and every reply carries exactly one enhanced code', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const { dialogue, ehlo } = await authedDialogue(world, token);
    try {
      assert.ok(ehlo.lines.includes('ENHANCEDSTATUSCODES'), ehlo.lines.join(' | '));
      assert.ok(!ehlo.lines.includes('DSN'), ehlo.lines.join(' | '));
      const ours = await dialogue.command('MAIL FROM:<someone@unverified.example.test>');
      assert.deepEqual([ours.code, ours.lines[0].split(' ').slice(0, 2)], [550, ['5.7.1', 'domain_not_verified:']]);
      const mailFrom = await dialogue.command(`MAIL FROM:<${SENDER}>`);
      assert.deepEqual([mailFrom.code, mailFrom.lines[0]], [250, '2.1.0 Accepted']);
      const rcpt = await dialogue.command('RCPT TO:<jane@customer.test>');
      assert.deepEqual([rcpt.code, rcpt.lines[0]], [250, '2.1.5 Accepted']);
      const unknown = await dialogue.command('FROB');
      assert.equal(unknown.code, 500);
      assert.match(unknown.lines[0], /^5\.5\.\d /);
      const data = await dialogue.command('DATA');
      assert.equal(data.code, 354);
      const done = await dialogue.command(`From: ${SENDER}\r\nTo: jane@customer.test\r\nSubject: Hi\r\n\r\nHello\r\n.`);
      assert.equal(done.code, 250, done.lines.join(' | '));
      assert.match(done.lines[0], /^2\.0\.0 OK id=[0-9a-f-]{36} /);
    } finally {
      dialogue.close();
    }
  });

  it('a suppressed recipient is refused at RCPT (550 5.1.1, naming the reason) and the message goes to the others', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    await addSuppression(harness().db, account.accountId, 'gone@customer.test', 'bounce');
    const result = await submit(world, token, mail({ to: 'jane@customer.test', cc: 'Gone@customer.test', bcc: 'hidden@customer.test' }));
    assert.ok(result.ok, result.response);
    assert.match(result.response, /status=queued/);
    const info = result.info as { rejected: string[]; rejectedErrors?: Array<{ responseCode?: number; response?: string }> };
    assert.deepEqual(info.rejected, ['Gone@customer.test']);
    assert.equal(info.rejectedErrors?.[0].responseCode, 550);
    assert.match(
      info.rejectedErrors?.[0].response ?? '',
      /^550 5\.1\.1 recipient_suppressed: gone@customer\.test is on this account's suppression list \(reason: bounce\)/,
    );
    const [row] = await messageRows(account.accountId);
    assert.equal(row.id, idOf(result.response));
    assert.deepEqual([...row.recipients].sort(), ['hidden@customer.test', 'jane@customer.test']);
    const suppressed = (await eventRows(account.accountId)).filter((e) => e.type === 'email.suppressed');
    assert.deepEqual(
      suppressed.map((e) => [e.data.recipient, e.data.reason, e.data.from]),
      [['gone@customer.test', 'bounce', SENDER]],
    );
  });

  it('a message whose every recipient is suppressed is refused at RCPT and never sent', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    await addSuppression(harness().db, account.accountId, 'gone@customer.test', 'complaint');
    const refused = await submit(world, token, mail({ to: 'gone@customer.test' }));
    assertRefused(refused, 550, '5.1.1', 'recipient_suppressed');
    assert.match(refused.response, /reason: complaint/);
    assert.deepEqual(await messageRows(account.accountId), []);
    assert.equal(world.smtp.dataReceived, 0);
  });
});
