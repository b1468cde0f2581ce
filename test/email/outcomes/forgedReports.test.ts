import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startReturnPathServer, type ReturnPathServer } from '../../../src/email/returnPath/server';
import { newAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import {
  arfReport,
  deliverReport,
  dsnReport,
  envelopeIdOf,
  eventsOf,
  outcomeList,
  RETURN_DOMAIN,
  returnPathOf,
  storedEmail,
  suppressionRows,
} from './kit';

const JANE = 'jane@customer.test';
const BOB = 'bob@customer.test';

describe('a report only ever affects the recipient its own return path names', () => {
  let returnPath: ReturnPathServer;

  before(async () => {
    returnPath = await startReturnPathServer(harness().deps, { host: '127.0.0.1', port: 0, domain: RETURN_DOMAIN });
  });
  after(async () => {
    await returnPath.stop();
  });

  /** An account with one email sent to Jane and Bob. */
  async function sentToJaneAndBob() {
    const { accountId } = await newAccount();
    return { accountId, id: await storedEmail(accountId, [JANE, BOB]) };
  }

  async function deliver(to: string | string[], raw: string) {
    const reply = await deliverReport(returnPath.port, to, raw);
    assert.match(reply, /^250/, 'every report is answered 250, whatever it matched');
    await returnPath.idle();
  }

  async function assertNothingChanged(accountId: string) {
    assert.deepEqual(await outcomeList(accountId), []);
    assert.deepEqual(await suppressionRows(accountId), []);
    assert.deepEqual(await eventsOf(accountId), []);
  }

  it("a forged complaint to Jane's return path naming her co-recipient Bob changes nothing", async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(returnPathOf(id, JANE), arfReport({ rcptTo: [BOB] }));
    // Without Original-Rcpt-To the original's To header is read: it names Bob too, and he is still not Jane.
    await deliver(returnPathOf(id, JANE), arfReport({ originalHeaders: [`To: ${BOB}`, `Message-ID: <${id}@mail.example.test>`] }));
    await assertNothingChanged(accountId);
  });

  it("a forged bounce to Jane's return path naming Bob changes nothing, as Final- or Original-Recipient", async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(returnPathOf(id, JANE), dsnReport({ recipient: BOB, envelopeId: envelopeIdOf(id, JANE) }));
    await deliver(returnPathOf(id, JANE), dsnReport({ recipient: 'alias@elsewhere.test', originalRecipient: BOB }));
    await assertNothingChanged(accountId);
  });

  it('a report whose return path has a bad MAC changes nothing', async () => {
    const { accountId, id } = await sentToJaneAndBob();
    const genuine = returnPathOf(id, JANE);
    const [local, domain] = genuine.split('@');
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'a' ? 'b' : 'a') + text.slice(at + 1);
    const badCheck = `${flip(local, local.length - 1)}@${domain}`;
    const badTag = `${flip(local, local.indexOf('.') + 1)}@${domain}`;
    const otherEmail = `${local.replace(id.replace(/-/g, ''), randomUUID().replace(/-/g, ''))}@${domain}`;
    for (const address of [badCheck, badTag, otherEmail]) await deliver(address, dsnReport({ recipient: JANE }));
    await assertNothingChanged(accountId);
  });

  it('reports to the old bounces+<email id> return path (no MAC) are ignored', async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(`bounces+${id}@${RETURN_DOMAIN}`, dsnReport({ recipient: JANE, envelopeId: id }));
    await deliver(`bounces+${id}@${RETURN_DOMAIN}`, arfReport({ rcptTo: [JANE] }));
    await assertNothingChanged(accountId);
  });

  it("a DSN whose envelope id is not its return path's own counts for nothing", async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(returnPathOf(id, JANE), dsnReport({ recipient: JANE, envelopeId: envelopeIdOf(id, BOB) }));
    await deliver(returnPathOf(id, JANE), dsnReport({ recipient: JANE, envelopeId: id }));
    await assertNothingChanged(accountId);
  });

  it('a report naming the email only by its Message-ID counts for nothing', async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(
      `fbl@${RETURN_DOMAIN}`,
      arfReport({ rcptTo: [JANE], originalHeaders: [`Message-ID: <${id}@mail.example.test>`, `To: ${JANE}`] }),
    );
    await assertNothingChanged(accountId);
  });

  it('a report addressed to two return paths at once counts for nothing', async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver([returnPathOf(id, JANE), returnPathOf(id, BOB)], dsnReport({ recipient: JANE }));
    await assertNothingChanged(accountId);
  });

  it("a bounce to Jane's own return path is recorded for her alone, once, however often it comes", async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(returnPathOf(id, JANE), dsnReport({ recipient: 'Jane@Customer.test', envelopeId: envelopeIdOf(id, JANE) }));
    await deliver(returnPathOf(id, JANE).toUpperCase(), dsnReport({ recipient: JANE }));
    assert.deepEqual(await outcomeList(accountId), [`email.bounced ${JANE}`]);
    assert.deepEqual(await suppressionRows(accountId), [{ email: JANE, reason: 'bounce', message_id: id }]);
    assert.equal((await eventsOf(accountId, ['email.bounced'])).length, 1);
  });

  it('a bounce for an address a relay rewrote counts through its Original-Recipient', async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(returnPathOf(id, JANE), dsnReport({ recipient: 'jane.doe@mailhost.test', originalRecipient: JANE }));
    assert.deepEqual(await outcomeList(accountId), [`email.bounced ${JANE}`]);
  });

  it('without a return path, a DSN counts through its tagged envelope id (the same MAC), for that recipient only', async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(`postmaster@${RETURN_DOMAIN}`, dsnReport({ recipient: BOB, envelopeId: envelopeIdOf(id, JANE) }));
    await deliver(`postmaster@${RETURN_DOMAIN}`, dsnReport({ recipient: JANE, envelopeId: envelopeIdOf(id, JANE) }));
    assert.deepEqual(await outcomeList(accountId), [`email.bounced ${JANE}`]);
  });

  it("a feedback loop's report counts through the original's tagged envelope sender, for that recipient only", async () => {
    const { accountId, id } = await sentToJaneAndBob();
    await deliver(`fbl@${RETURN_DOMAIN}`, arfReport({ rcptTo: [JANE, BOB], originalMailFrom: returnPathOf(id, JANE) }));
    assert.deepEqual(await outcomeList(accountId), [`email.complained ${JANE}`]);
    await deliver(
      `fbl@${RETURN_DOMAIN}`,
      arfReport({ originalHeaders: [`Return-Path: <${returnPathOf(id, BOB)}>`, `To: ${JANE}, ${BOB}`] }),
    );
    assert.deepEqual(await outcomeList(accountId), [`email.complained ${BOB}`, `email.complained ${JANE}`]);
    assert.deepEqual(
      (await suppressionRows(accountId)).map((s) => `${s.email} ${s.reason}`),
      [`${BOB} complaint`, `${JANE} complaint`],
    );
  });

  it('a report about an unknown email, a recipient it never had, or not a report at all changes nothing', async () => {
    const { accountId, id } = await sentToJaneAndBob();
    const stranger = 'stranger@customer.test';
    await deliver(returnPathOf(randomUUID(), JANE), dsnReport({ recipient: JANE }));
    await deliver(returnPathOf(id, stranger), dsnReport({ recipient: stranger }));
    await deliver(returnPathOf(id, JANE), 'From: a@b.test\r\nSubject: hi\r\n\r\nhello\r\n');
    await assertNothingChanged(accountId);
    assert.equal((await harness().db('email_suppressions').where({ email: stranger })).length, 0);
  });

  it('mail for another domain is refused at RCPT (550)', async () => {
    await assert.rejects(
      deliverReport(returnPath.port, 'someone@elsewhere.test', dsnReport({ recipient: JANE })),
      (err: { responseCode?: number }) => {
        assert.equal(err.responseCode, 550);
        return true;
      },
    );
  });
});
