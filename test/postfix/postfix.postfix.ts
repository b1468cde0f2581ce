import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { createTransport } from 'nodemailer';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import { lowFreePorts } from '../cluster/lib/ports';
import { DEFERRED_DOMAIN, LATE_BOUNCE_DOMAIN, MAILBOX_DOMAIN, RETURN_PATH_DOMAIN, type PostfixInstance } from './launcher';
import { startCatcher, type SmtpCatcher } from './lib/catcher';
import { parseDsn } from './lib/dsn';
import { requirePostfix, usePostfix } from './lib/mocha';
import { refusesConnections } from './lib/smtpProbe';

/*
 * The Postfix test bed itself (test/postfix/launcher.ts), driven with nodemailer as the client: what it accepts,
 * where it delivers, the DSNs it writes, and a stop and start.
 */

interface Send {
  from: string;
  to: string[];
  subject?: string;
  dsn?: SMTPConnection.DSNOptions;
}

async function send(postfix: PostfixInstance, { from, to, subject = 'Hello from the test bed', dsn }: Send) {
  const transport = createTransport({ host: postfix.host, port: postfix.port, secure: false, ignoreTLS: true });
  try {
    return await transport.sendMail({ from, to, subject, text: 'Hello.', envelope: { from, to }, ...(dsn ? { dsn } : {}) });
  } finally {
    transport.close();
  }
}

/** A VERP-like sender of its own per test, so each test finds its DSN among what the return path caught. */
const verpSender = () => `bounces+${randomUUID()}@${RETURN_PATH_DOMAIN}`;

describe('Postfix test bed: delivery, refusals and its own DSNs', function () {
  this.timeout(60_000);
  let returnPath: SmtpCatcher;

  before(async function () {
    requirePostfix(this);
    returnPath = await startCatcher();
  });
  const postfix = usePostfix(() => ({ returnPath: { port: returnPath.port }, main: { delay_warning_time: '1s' } }));
  after(async () => {
    await returnPath?.stop();
  });

  const dsnTo = (sender: string) => returnPath.waitFor((m) => m.to.includes(sender));

  it('mail to a known user of the mailbox domain is delivered to that user’s mailbox', async () => {
    const subject = `known user ${randomUUID()}`;
    const info = await send(postfix(), { from: 'sender@example.test', to: [postfix().address('alice')], subject });
    assert.match(info.response, /^250 2\.0\.0 Ok: queued as [0-9A-F]+/);
    const raw = (await postfix().waitForMail('alice')).at(-1)!;
    assert.equal((await simpleParser(raw)).subject, subject);
    // virtual(8) puts the envelope on top of what it stores (with LF line ends).
    const head = raw.toString('latin1').split('\n\n')[0].split('\n');
    assert.equal(head[0], 'Return-Path: <sender@example.test>');
    assert.ok(head.includes('Delivered-To: alice@postfix.workyard.test'), head.join('\n'));
  });

  it('an unknown user of the mailbox domain is refused at RCPT with 550 5.1.1 while a known one in the same transaction is delivered', async () => {
    const subject = `mixed recipients ${randomUUID()}`;
    const unknown = `nobody@${MAILBOX_DOMAIN}`;
    const before = (await postfix().readMailbox('bob')).length;
    const info = await send(postfix(), { from: 'sender@example.test', to: [postfix().address('bob'), unknown], subject });
    assert.deepEqual(info.accepted, [postfix().address('bob')]);
    assert.deepEqual(info.rejected, [unknown]);
    const [refusal] = (info as unknown as { rejectedErrors: Array<{ responseCode: number; response: string }> }).rejectedErrors;
    assert.equal(refusal.responseCode, 550);
    assert.match(refusal.response, /^550 5\.1\.1 <nobody@postfix\.workyard\.test>: Recipient address rejected/);
    const delivered = await postfix().waitForMail('bob', before + 1);
    assert.equal((await simpleParser(delivered.at(-1)!)).subject, subject);
  });

  it('a recipient Postfix accepts and then bounces gets its own DSN (multipart/report) at the return path, naming the recipient, a 5.x.x status and the ENVID', async () => {
    const sender = verpSender();
    const recipient = `gone@${LATE_BOUNCE_DOMAIN}`;
    const envid = randomUUID();
    const info = await send(postfix(), { from: sender, to: [recipient], dsn: { envid, ret: 'HDRS', notify: ['FAILURE'] } });
    assert.deepEqual(info.accepted, [recipient], 'accepted first: the bounce comes later, from Postfix');

    const caught = await dsnTo(sender);
    assert.equal(caught.from, '', 'a DSN has the null sender');
    const dsn = await parseDsn(caught.raw);
    assert.equal(dsn.contentType, 'multipart/report');
    assert.equal(dsn.reportType, 'delivery-status');
    assert.equal(dsn.message.get('original-envelope-id'), envid);
    assert.equal(dsn.message.get('reporting-mta'), 'dns; mta.workyard.test');
    assert.equal(dsn.recipients.length, 1);
    const [r] = dsn.recipients;
    assert.equal(r.get('final-recipient'), `rfc822; ${recipient}`);
    assert.equal(r.get('action'), 'failed');
    assert.match(r.get('status')!, /^5\.\d{1,3}\.\d{1,3}$/);
    assert.deepEqual(dsn.parts, ['text/plain', 'message/delivery-status', 'text/rfc822-headers'], 'RET=HDRS: the headers only');
  });

  it('NOTIFY=SUCCESS: delivery to a mailbox is reported to the return path with action delivered and status 2.0.0', async () => {
    const sender = verpSender();
    const envid = randomUUID();
    await send(postfix(), { from: sender, to: [postfix().address('carol')], dsn: { envid, notify: ['SUCCESS'] } });
    const dsn = await parseDsn((await dsnTo(sender)).raw);
    assert.equal(dsn.message.get('original-envelope-id'), envid);
    const [r] = dsn.recipients;
    assert.equal(r.get('final-recipient'), `rfc822; carol@${MAILBOX_DOMAIN}`);
    assert.equal(r.get('action'), 'delivered');
    assert.equal(r.get('status'), '2.0.0');
  });

  it('a message Postfix cannot deliver yet produces a delay notice (action delayed, 4.x.x) and stays queued', async () => {
    const sender = verpSender();
    const recipient = `later@${DEFERRED_DOMAIN}`;
    await send(postfix(), { from: sender, to: [recipient], dsn: { envid: randomUUID(), notify: ['DELAY', 'FAILURE'] } });
    const dsn = await parseDsn((await dsnTo(sender)).raw);
    const [r] = dsn.recipients;
    assert.equal(r.get('final-recipient'), `rfc822; ${recipient}`);
    assert.equal(r.get('action'), 'delayed');
    assert.match(r.get('status')!, /^4\.\d{1,3}\.\d{1,3}$/);
    const queued = await postfix().queue();
    assert.ok(
      queued.some((entry) => entry.sender === sender && entry.recipients.some((q) => q.address === recipient)),
      JSON.stringify(queued),
    );
  });

  it('a domain without a route is bounced, never relayed: the DSN names the recipient with a 5.x.x status', async () => {
    const sender = verpSender();
    const recipient = `someone@elsewhere.example`;
    await send(postfix(), { from: sender, to: [recipient] });
    const [r] = (await parseDsn((await dsnTo(sender)).raw)).recipients;
    assert.equal(r.get('final-recipient'), `rfc822; ${recipient}`);
    assert.equal(r.get('action'), 'failed');
    assert.match(r.get('status')!, /^5\./);
  });
});

describe('Postfix test bed: stopped and started again', function () {
  this.timeout(90_000);
  const RELAY_DOMAIN = 'relay.workyard.test';
  let nextHopPort: number;
  let nextHop: SmtpCatcher | undefined;

  before(async function () {
    requirePostfix(this);
    [nextHopPort] = await lowFreePorts(1);
  });
  // The next hop of RELAY_DOMAIN listens only once the test starts it: until then mail for it waits in the queue.
  const postfix = usePostfix(() => ({ routes: { [RELAY_DOMAIN]: `smtp:[127.0.0.1]:${nextHopPort}` } }));
  after(async () => {
    await nextHop?.stop();
  });

  it('with the instance stopped its SMTP port refuses connections; started again, its queue is delivered once', async () => {
    const recipient = `someone@${RELAY_DOMAIN}`;
    const subject = `queued across a restart ${randomUUID()}`;
    await send(postfix(), { from: 'sender@example.test', to: [recipient], subject });
    const [queued] = await postfix().queue();
    assert.ok(queued, 'the message waits in the queue while its next hop is down');

    await postfix().stop();
    assert.equal(await postfix().running(), false);
    assert.ok(await refusesConnections(postfix().host, postfix().port), 'nothing listens on the SMTP port');
    await assert.rejects(send(postfix(), { from: 'sender@example.test', to: [postfix().address('alice')] }), /ECONNREFUSED/);

    nextHop = await startCatcher(nextHopPort);
    await postfix().start();
    await postfix().flush();
    const caught = await nextHop.waitFor((m) => m.to.includes(recipient));
    assert.equal((await simpleParser(caught.raw)).subject, subject);
    assert.deepEqual(await postfix().queueIds(), []);
    await sleep(3_000); // past queue_run_delay and the longest backoff: a second copy would be here by now
    assert.equal(nextHop.messages.length, 1);
    assert.match(
      await postfix().log(),
      new RegExp(`${queued.id}: to=<${recipient}>, relay=127\\.0\\.0\\.1\\[127\\.0\\.0\\.1\\]:${nextHopPort}.*status=sent`),
    );
  });
});
