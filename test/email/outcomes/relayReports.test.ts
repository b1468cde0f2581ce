import assert from 'node:assert/strict';
import { createTransport } from 'nodemailer';
import { messageOutcomes } from '../../../src/email/outcomes';
import { startReturnPathServer, type ReturnPathServer } from '../../../src/email/returnPath/server';
import { startSmtpSandbox, type SmtpSandbox } from '../../../src/sandbox/smtp';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { emailKey, message, senderAccount } from '../send/kit';
import {
  envelopeIdOf,
  eventsOf,
  eventuallyEvents,
  outcomeList,
  RETURN_DOMAIN,
  returnPathOf,
  SIMULATED_DOMAIN,
  startOutcomeWorld,
  storedEmail,
  suppressionRows,
  type OutcomeWorld,
} from './kit';

describe('the sandbox relay answers each tagged transaction with reports to its return path', () => {
  let returnPath: ReturnPathServer;
  let relay: SmtpSandbox;

  before(async () => {
    returnPath = await startReturnPathServer(harness().deps, { host: '127.0.0.1', port: 0, domain: RETURN_DOMAIN });
    relay = await startSmtpSandbox({ outcomes: { returnPath: { host: '127.0.0.1', port: returnPath.port }, domains: [SIMULATED_DOMAIN] } });
  });
  after(async () => {
    await relay.stop();
    await returnPath.stop();
  });

  /** Relays `recipient`'s copy of the email as the send path does: one transaction, its own return path and ENVID. */
  async function relayCopy(emailId: string, recipient: string) {
    const transport = createTransport({ host: '127.0.0.1', port: relay.port, secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({
        envelope: { from: returnPathOf(emailId, recipient), to: [recipient] },
        dsn: { ret: 'HDRS', notify: ['success', 'failure', 'delay'], envid: envelopeIdOf(emailId, recipient) },
        raw: `From: support@mail.example.test\r\nTo: ${recipient}\r\nMessage-ID: <${emailId}@mail.example.test>\r\nSubject: Hi\r\n\r\nHello\r\n`,
      });
    } finally {
      transport.close();
    }
    await relay.reportsSettled();
    await returnPath.idle();
  }

  async function sentTo(...recipients: string[]) {
    const { accountId } = await newAccount();
    const id = await storedEmail(accountId, recipients);
    for (const recipient of recipients) await relayCopy(id, recipient);
    return { accountId, id };
  }

  it('a relayed DSN marks the recipient delivered, with action relayed', async () => {
    const { accountId, id } = await sentTo(`relayed@${SIMULATED_DOMAIN}`);
    const [delivered] = await eventsOf(accountId, ['email.delivered']);
    assert.ok(delivered, 'no email.delivered');
    assert.equal(delivered.data.action, 'relayed');
    assert.equal(delivered.data.status, '2.0.0');
    assert.equal(delivered.data.recipient, `relayed@${SIMULATED_DOMAIN}`);
    const outcomes = (await messageOutcomes(harness().db, accountId, id))!;
    assert.equal(outcomes.state, 'delivered');
    assert.equal(outcomes.events.at(-1)!.detail.action, 'relayed');
    assert.deepEqual(await suppressionRows(accountId), []);
  });

  it('an expanded DSN (a list) marks the recipient delivered, with action expanded', async () => {
    const { accountId } = await sentTo(`expanded@${SIMULATED_DOMAIN}`);
    const [delivered] = await eventsOf(accountId, ['email.delivered']);
    assert.equal(delivered?.data.action, 'expanded');
  });

  it('a success DSN → delivered; a failure (5.1.1) → bounced and suppressed; a delay → delivery_delayed', async () => {
    const ok = `jane@${SIMULATED_DOMAIN}`;
    const bounced = `bounced@${SIMULATED_DOMAIN}`;
    const delayed = `delayed@${SIMULATED_DOMAIN}`;
    const { accountId, id } = await sentTo(ok, bounced, delayed);
    assert.deepEqual(await outcomeList(accountId), [
      `email.bounced ${bounced}`,
      `email.delivered ${ok}`,
      `email.delivery_delayed ${delayed}`,
    ]);
    const [bounce] = await eventsOf(accountId, ['email.bounced']);
    assert.equal(bounce.data.bounce_type, 'hard');
    assert.equal(bounce.data.suppressed, true);
    assert.match(String(bounce.data.diagnostic_code), /550 5\.1\.1/);
    assert.deepEqual(await suppressionRows(accountId), [{ email: bounced, reason: 'bounce', message_id: id }]);
    assert.equal((await messageOutcomes(harness().db, accountId, id))!.state, 'bounced');
  });

  it('a feedback report → complained after delivered, and the address suppressed', async () => {
    const complained = `complained@${SIMULATED_DOMAIN}`;
    const { accountId, id } = await sentTo(complained, `jane@${SIMULATED_DOMAIN}`);
    assert.deepEqual(await outcomeList(accountId), [
      `email.complained ${complained}`,
      `email.delivered ${complained}`,
      `email.delivered jane@${SIMULATED_DOMAIN}`,
    ]);
    assert.deepEqual(await suppressionRows(accountId), [{ email: complained, reason: 'complaint', message_id: id }]);
  });
});

describe('delivery outcomes of live sends, end to end', () => {
  let world: OutcomeWorld;

  before(async () => {
    world = await startOutcomeWorld();
  });
  afterEach(() => world?.smtp.reset());
  after(async () => {
    await world?.close();
  });

  async function send(body: Record<string, unknown>) {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message(body) });
    assert.equal(res.status, 202, res.text);
    return { account, token, id: res.body.id as string };
  }

  it("each recipient's copy goes out with their own tagged return path and DSN envelope id", async () => {
    const { id } = await send({ to: 'jane@customer.test', cc: 'bob@customer.test' });
    const received = await world.smtp.waitForMessages(2);
    const senders = received.map((m) => [m.envelope.to.join(','), m.envelope.from]).sort();
    assert.deepEqual(senders, [
      ['bob@customer.test', returnPathOf(id, 'bob@customer.test')],
      ['jane@customer.test', returnPathOf(id, 'jane@customer.test')],
    ]);
    assert.equal(received[0].parsed.header('from'), 'Acme Support <support@mail.example.test>', 'the From header is unchanged');
  });

  it('each recipient gets its own outcome; only the bounced one is suppressed', async () => {
    const { account, id } = await send({ to: 'ok@customer.test', cc: 'bounced@customer.test', bcc: 'elsewhere@unsimulated.test' });
    await eventuallyEvents(account.accountId, ['email.delivered', 'email.bounced']);
    await world.smtp.reportsSettled();
    await world.returnPath.idle();
    assert.deepEqual(await outcomeList(account.accountId), ['email.bounced bounced@customer.test', 'email.delivered ok@customer.test']);
    assert.equal((await messageOutcomes(harness().db, account.accountId, id))!.state, 'bounced');
    assert.deepEqual(
      (await suppressionRows(account.accountId)).map((s) => s.email),
      ['bounced@customer.test'],
    );
  });

  it('GET /v1/email/emails/{id} answers the state, the events and their times', async () => {
    const { account, token, id } = await send({ to: 'bounced@customer.test' });
    await eventuallyEvents(account.accountId, ['email.bounced']);
    const res = await world.app.call('GET', `/v1/email/emails/${id}`, { token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.state, 'bounced');
    assert.equal(res.body.last_event, 'email.bounced');
    assert.ok(res.body.bounced_at);
    assert.ok(
      res.body.events.some((e: { type: string; detail: { status?: string } }) => e.type === 'email.bounced' && e.detail.status === '5.1.1'),
    );
  });

  it("another account cannot read an email's outcomes", async () => {
    const { id } = await send({ to: 'jane@customer.test' });
    const other = await senderAccount();
    assert.equal(await messageOutcomes(harness().db, other.accountId, id), null);
    assert.equal(await messageOutcomes(harness().db, other.accountId, 'not-a-uuid'), null);
  });
});
