import assert from 'node:assert/strict';
import { Resolver } from 'node:dns/promises';
import { domainDetails } from '../../src/email/domains/service';
import { startDnsSandbox, type DnsSandbox } from '../../src/sandbox/dns';
import { dkimpy } from '../email/dkim/dkimpy';
import { deliverReport, arfReport, eventsOf, outcomeList, RETURN_DOMAIN, suppressionRows } from '../email/outcomes/kit';
import { emailKey, eventRows, message, senderAccount, settledEmail, startSendWorld, type SendWorld } from '../email/send/kit';
import { startReturnPathServer, type ReturnPathServer } from '../../src/email/returnPath/server';
import { harness } from '../helpers/harness';
import { eventually } from '../jobs/jobTestKit';
import { LATE_BOUNCE_DOMAIN, MAILBOX_DOMAIN } from './launcher';
import { requirePostfix, usePostfix } from './lib/mocha';

/*
 * Workyard's own send path with Postfix as the relay (SMTP_URL): live sends accepted by the API, delivered by the
 * delivery job one tagged transaction per recipient, Postfix's answers and its own DSNs read back as outcomes.
 */
describe('live sends through Postfix', function () {
  this.timeout(90_000);
  let returnPath: ReturnPathServer;
  let world: SendWorld;
  let dns: DnsSandbox;

  before(async function () {
    requirePostfix(this);
    returnPath = await startReturnPathServer(harness().deps, { host: '127.0.0.1', port: 0, domain: RETURN_DOMAIN });
    dns = await startDnsSandbox();
  });
  const postfix = usePostfix(() => ({ returnPath: { port: returnPath.port, domain: RETURN_DOMAIN } }));
  before(async () => {
    world = await startSendWorld({
      config: {
        SMTP_URL: postfix().smtpUrl,
        EMAIL_RETURN_PATH_DOMAIN: RETURN_DOMAIN,
        EMAIL_RETRY_INITIAL_SECONDS: 1,
        EMAIL_RETRY_MAX_SECONDS: 2,
      },
    });
  });
  after(async () => {
    await world?.close();
    await returnPath?.stop();
    await dns?.stop();
  });

  async function send(body: Record<string, unknown>) {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message(body) });
    assert.equal(res.status, 202, res.text);
    return { accountId: account.accountId, token, id: res.body.id as string, messageId: res.body.messageId as string };
  }

  it("a delivered live send lands once in the recipient's mailbox, with its tagged return path and a DKIM signature an independent verifier accepts against the sandbox DNS", async () => {
    const { accountId, token, id, messageId } = await send({ to: `alice@${MAILBOX_DOMAIN}`, subject: 'Through Postfix' });
    const settled = await settledEmail(world, token, id);
    assert.equal(settled.body.status, 'sent');
    const mail = (await postfix().waitForMail('alice', 1, 20_000)).find((m) => m.toString().includes(messageId))!;
    const text = mail.toString();
    assert.match(text, /^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=mail\.example\.test;/m);

    // The domain's records as the API answers them, published on the sandbox DNS server, and read back from it.
    const [domain] = await harness().db('email_domains').where({ account_id: accountId }).select('id');
    const details = await domainDetails(harness().deps, accountId, domain.id);
    dns.publish(details.records);
    const dkim = details.records.find((r) => r.purpose === 'dkim')!;
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const [published] = (await resolver.resolveTxt(dkim.name)).map((parts) => parts.join(''));
    // A maildir holds LF line ends; the signature is over the message as it travelled (CRLF).
    const wire = Buffer.from(text.replace(/\r?\n/g, '\r\n'));
    assert.equal(dkimpy(wire, { [dkim.name]: published }), 'pass');
    const tampered = Buffer.from(wire.toString().replace('Hi Jane', 'Hi Jane!'));
    assert.match(dkimpy(tampered, { [dkim.name]: published }), /^fail/);
    assert.match(text, new RegExp(`Message-ID: ${messageId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i'));
    assert.match(text, /^Return-Path: <b\+[0-9a-f]{32}\.[a-z2-7]+\.[a-z2-7]+@returns\.workyard\.test>/im);
    assert.equal((await postfix().readMailbox('alice')).filter((m) => m.toString().includes(messageId)).length, 1);
  });

  it('an unknown local user is refused by Postfix at RCPT: that recipient bounces and is suppressed, the other is delivered', async () => {
    const gone = `nobody@${MAILBOX_DOMAIN}`;
    const { accountId, token, id, messageId } = await send({ to: [gone, `bob@${MAILBOX_DOMAIN}`] });
    const settled = await settledEmail(world, token, id);
    assert.equal(settled.body.status, 'sent');
    const states = Object.fromEntries(
      settled.body.recipients.map((r: { email: string; state: string; detail: Record<string, unknown> }) => [r.email, r]),
    );
    assert.equal(states[gone].state, 'bounced');
    assert.equal(states[gone].detail.smtp_code, 550);
    assert.equal(states[gone].detail.status, '5.1.1');
    assert.equal(states[`bob@${MAILBOX_DOMAIN}`].state, 'sent');
    assert.ok((await postfix().waitForMail('bob', 1, 20_000)).some((m) => m.toString().includes(messageId)));
    assert.deepEqual(
      (await suppressionRows(accountId)).map((s) => [s.email, s.reason]),
      [[gone, 'bounce']],
    );
  });

  it("Postfix's own DSN for an address it accepted and then bounced reaches the return path: email.bounced, suppressed", async () => {
    const recipient = `gone@${LATE_BOUNCE_DOMAIN}`;
    const { accountId, token, id } = await send({ to: recipient });
    assert.equal((await settledEmail(world, token, id)).body.status, 'sent');
    await eventually(
      () => eventsOf(accountId, ['email.bounced']),
      (rows) => rows.length === 1,
      30_000,
      'the DSN to be read',
    );
    const [bounced] = await eventsOf(accountId, ['email.bounced']);
    assert.equal(bounced.data.recipient, recipient);
    assert.equal(bounced.data.status, '5.1.1');
    assert.deepEqual(
      (await suppressionRows(accountId)).map((s) => [s.email, s.reason]),
      [[recipient, 'bounce']],
    );
    const email = await world.app.call('GET', `/v1/email/emails/${id}`, { token });
    assert.equal(email.body.recipients[0].state, 'bounced');
  });

  it('a relay outage: the send is accepted while Postfix is down and delivered once when it is back', async () => {
    await postfix().stop();
    let restarted = false;
    try {
      const { accountId, token, id, messageId } = await send({ to: `carol@${MAILBOX_DOMAIN}` });
      await eventually(
        () => world.app.call('GET', `/v1/email/emails/${id}`, { token }),
        (r) => r.body.status === 'deferred',
        30_000,
        'the email to wait for the relay',
      );
      await postfix().start();
      restarted = true;
      assert.equal((await settledEmail(world, token, id)).body.status, 'sent');
      const mails = await postfix().waitForMail('carol', 1, 20_000);
      assert.equal(mails.filter((m) => m.toString().includes(messageId)).length, 1);
      const types = (await eventRows(accountId)).map((e) => e.type);
      assert.deepEqual(types, ['email.delivery_delayed', 'email.sent']);
    } finally {
      if (!restarted) await postfix().start();
    }
  });

  it("a forged complaint sent through Postfix to one recipient's return path, naming the other, changes nothing", async () => {
    const jane = `alice@${MAILBOX_DOMAIN}`;
    const bob = `bob@${MAILBOX_DOMAIN}`;
    const { accountId, token, id } = await send({ to: [jane, bob] });
    await settledEmail(world, token, id);
    const [janeCopy] = (await postfix().waitForMail('alice', 1, 20_000)).filter((m) => m.toString().includes(id));
    // What Jane sees as her Return-Path is all a forger among the recipients has.
    const janeReturnPath = /^Return-Path: <([^>]+)>/im.exec(janeCopy.toString())![1];
    // Postfix's success notices for both copies come first; only then is the forgery sent.
    const before = await eventually(
      () => outcomeList(accountId),
      (list) => list.length === 2,
      30_000,
      'the success notices',
    );
    const reply = await deliverReport(postfix().port, janeReturnPath, arfReport({ rcptTo: [bob] }));
    assert.match(reply, /^250/);
    await postfix().flush();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await returnPath.idle();
    assert.deepEqual(await outcomeList(accountId), before);
    assert.deepEqual(await suppressionRows(accountId), []);
    assert.equal((await eventsOf(accountId, ['email.complained'])).length, 0);
  });
});
