import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';
import { harness } from '../../helpers/harness';
import { emailKey, message, senderAccount } from '../send/kit';
import { eventsOf, RETURN_DOMAIN, startOutcomeWorld, suppressionRows, type OutcomeWorld } from './kit';

/** A failure DSN as an MTA writes it, for `recipient` of the email `envelopeId` (or none). */
function failureDsn(recipient: string, envelopeId: string | null): string {
  return [
    'From: MAILER-DAEMON@mx.forger.test',
    'Subject: Undelivered Mail',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain',
    '',
    'It bounced.',
    '--b',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.forger.test',
    ...(envelopeId ? [`Original-Envelope-Id: ${envelopeId}`] : []),
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    'Action: failed',
    'Status: 5.1.1',
    '',
    '--b--',
    '',
  ].join('\r\n');
}

describe('the return path ignores what is not a report about one of our emails', () => {
  let world: OutcomeWorld;

  before(async () => {
    world = await startOutcomeWorld();
  });
  after(async () => {
    await world.close();
  });

  const returnPath = () => createTransport({ host: '127.0.0.1', port: world.returnPath.port, secure: false, ignoreTLS: true });

  async function deliver(to: string, raw: string) {
    const transport = returnPath();
    try {
      return await transport.sendMail({ envelope: { from: '', to: [to] }, raw });
    } finally {
      transport.close();
    }
  }

  async function sentEmail(to = 'jane@customer.test') {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ to }) });
    assert.equal(res.status, 200, res.text);
    await world.smtp.reportsSettled();
    await world.returnPath.idle();
    return { accountId: account.accountId, id: res.body.id as string };
  }

  const outcomeRows = (accountId: string) => harness().db('email_message_events').where({ account_id: accountId });

  it('a forged bounce for an unknown email is accepted (250) and changes nothing', async () => {
    const id = randomUUID();
    const info = await deliver(`bounces+${id}@${RETURN_DOMAIN}`, failureDsn('victim@customer.test', id));
    assert.match(info.response, /^250/);
    await world.returnPath.idle();
    assert.equal((await harness().db('email_message_events').where({ message_id: id })).length, 0);
    assert.equal((await harness().db('email_suppressions').where({ email: 'victim@customer.test' })).length, 0);
  });

  it("a bounce naming someone the email never went to, or an envelope id that is not the VERP address's, is ignored", async () => {
    const { accountId, id } = await sentEmail();
    const other = await sentEmail();
    await deliver(`bounces+${id}@${RETURN_DOMAIN}`, failureDsn('stranger@customer.test', id));
    await deliver(`bounces+${id}@${RETURN_DOMAIN}`, failureDsn('jane@customer.test', other.id));
    await world.returnPath.idle();
    assert.deepEqual(
      (await outcomeRows(accountId)).map((r) => r.type),
      ['email.delivered'],
    );
    assert.deepEqual(await suppressionRows(accountId), []);
    assert.deepEqual(
      (await eventsOf(accountId, ['email.bounced'])).map((e) => e.type),
      [],
    );
  });

  it('a genuine late bounce for a recipient is recorded once, even when the report comes twice', async () => {
    const { accountId, id } = await sentEmail();
    await deliver(`bounces+${id}@${RETURN_DOMAIN}`, failureDsn('Jane@Customer.test', id));
    await deliver(`bounces+${id}@${RETURN_DOMAIN}`, failureDsn('jane@customer.test', null));
    await world.returnPath.idle();
    assert.equal((await eventsOf(accountId, ['email.bounced'])).length, 1);
    assert.deepEqual(await suppressionRows(accountId), [{ email: 'jane@customer.test', reason: 'bounce', message_id: id }]);
  });

  it('mail that is not a report is accepted and ignored; mail for another domain is refused at RCPT', async () => {
    const info = await deliver(`postmaster@${RETURN_DOMAIN}`, 'From: a@b.test\r\nSubject: hi\r\n\r\nhello\r\n');
    assert.match(info.response, /^250/);
    await assert.rejects(deliver('someone@elsewhere.test', failureDsn('x@customer.test', null)), (err: { responseCode?: number }) => {
      assert.equal(err.responseCode, 550);
      return true;
    });
  });
});
