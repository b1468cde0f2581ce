import assert from 'node:assert/strict';
import { createTransport } from 'nodemailer';
import { startReturnPathServer, type ReturnPathServer } from '../../src/email/returnPath/server';
import { newAccount } from '../helpers/accounts';
import { harness } from '../helpers/harness';
import { envelopeIdOf, eventsOf, eventuallyEvents, RETURN_DOMAIN, returnPathOf, storedEmail, suppressionRows } from '../email/outcomes/kit';
import { DEFERRED_DOMAIN, LATE_BOUNCE_DOMAIN, MAILBOX_DOMAIN, type PostfixInstance } from './launcher';
import { requirePostfix, usePostfix } from './lib/mocha';

/*
 * Postfix's own DSNs, written by Postfix and relayed by it to Workyard's return-path server (src/email/returnPath):
 * each is read as the outcome it reports. The copies are relayed as the send path relays them: one transaction per
 * recipient, its tagged return path, ENVID and NOTIFY=SUCCESS,FAILURE,DELAY.
 */
describe('Postfix’s own DSNs reach Workyard’s return path and are read as outcomes', function () {
  this.timeout(60_000);
  let returnPath: ReturnPathServer;

  before(async function () {
    requirePostfix(this);
    returnPath = await startReturnPathServer(harness().deps, { host: '127.0.0.1', port: 0, domain: RETURN_DOMAIN });
  });
  const postfix = usePostfix(() => ({
    returnPath: { port: returnPath.port, domain: RETURN_DOMAIN },
    main: { delay_warning_time: '1s' },
  }));
  after(async () => {
    await returnPath?.stop();
  });

  async function relayThroughPostfix(instance: PostfixInstance, emailId: string, recipient: string) {
    const transport = createTransport({ host: instance.host, port: instance.port, secure: false, ignoreTLS: true });
    try {
      const info = await transport.sendMail({
        envelope: { from: returnPathOf(emailId, recipient), to: [recipient] },
        dsn: { ret: 'HDRS', notify: ['SUCCESS', 'FAILURE', 'DELAY'], envid: envelopeIdOf(emailId, recipient) },
        raw: `From: support@mail.example.test\r\nTo: ${recipient}\r\nMessage-ID: <${emailId}@mail.example.test>\r\nSubject: Hi\r\n\r\nHello\r\n`,
      });
      assert.deepEqual(info.accepted, [recipient]);
    } finally {
      transport.close();
    }
  }

  async function sentTo(recipient: string) {
    const { accountId } = await newAccount();
    const id = await storedEmail(accountId, [recipient]);
    await relayThroughPostfix(postfix(), id, recipient);
    return { accountId, id };
  }

  it('a recipient Postfix accepts and then bounces → email.bounced (hard, 5.x.x) and the address suppressed', async () => {
    const recipient = `gone@${LATE_BOUNCE_DOMAIN}`;
    const { accountId, id } = await sentTo(recipient);
    const rows = await eventuallyEvents(accountId, ['email.bounced'], 20_000);
    const bounced = rows.find((r) => r.type === 'email.bounced')!;
    assert.equal(bounced.data.recipient, recipient);
    assert.match(String(bounced.data.status), /^5\.1\.1$/);
    assert.equal(bounced.data.bounce_type, 'hard');
    assert.equal(bounced.data.reporting_mta, 'dns; mta.workyard.test');
    assert.deepEqual(await suppressionRows(accountId), [{ email: recipient, reason: 'bounce', message_id: id }]);
  });

  it('delivery to a mailbox → Postfix’s success notice marks the recipient delivered', async () => {
    const recipient = `alice@${MAILBOX_DOMAIN}`;
    const { accountId } = await sentTo(recipient);
    const rows = await eventuallyEvents(accountId, ['email.delivered'], 20_000);
    const delivered = rows.find((r) => r.type === 'email.delivered')!;
    assert.equal(delivered.data.recipient, recipient);
    assert.equal(delivered.data.action, 'delivered');
    assert.equal(delivered.data.status, '2.0.0');
    assert.deepEqual(await suppressionRows(accountId), []);
  });

  it('a recipient Postfix keeps retrying → its delay notice marks the recipient delivery_delayed, not suppressed', async () => {
    const recipient = `later@${DEFERRED_DOMAIN}`;
    const { accountId } = await sentTo(recipient);
    const rows = await eventuallyEvents(accountId, ['email.delivery_delayed'], 20_000);
    assert.equal(rows.find((r) => r.type === 'email.delivery_delayed')!.data.recipient, recipient);
    assert.deepEqual(await suppressionRows(accountId), []);
    assert.deepEqual(
      (await eventsOf(accountId, ['email.bounced'])).map((e) => e.type),
      [],
    );
  });
});
