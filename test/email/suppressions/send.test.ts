import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { assertError } from '../../marketing/grounding/fixtures';
import { addSuppression } from '../../../src/email/suppressions/service';
import { emailKey, eventRows, message, messageRows, senderAccount, sleep, type SendWorld, useSendWorld } from '../send/kit';

describe('sending to a suppressed address', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  const suppressedEvents = async (accountId: string) => (await eventRows(accountId)).filter((e) => e.type === 'email.suppressed');

  it('a live send naming a suppressed recipient (any case, cc or bcc) answers 422 recipient_suppressed, sends nothing and emits email.suppressed', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    await addSuppression(harness().db, account.accountId, 'gone@customer.test', 'bounce');
    await addSuppression(harness().db, account.accountId, 'angry@customer.test', 'complaint');
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({
        to: 'jane@customer.test',
        cc: 'Gone <GONE@customer.test>',
        bcc: 'angry@customer.test',
        tags: [{ name: 'k', value: 'v' }],
      }),
    });
    assertError(res, 422, 'recipient_suppressed');
    assert.deepEqual(
      res.body.recipients.sort((a: { email: string }, b: { email: string }) => a.email.localeCompare(b.email)),
      [
        { email: 'angry@customer.test', reason: 'complaint' },
        { email: 'gone@customer.test', reason: 'bounce' },
      ],
    );
    assert.match(res.body.message, /gone@customer\.test/);
    await sleep(100);
    assert.equal(world.smtp.dataReceived, 0, 'nothing reached the relay');
    assert.deepEqual(await messageRows(account.accountId), []);
    const events = await suppressedEvents(account.accountId);
    assert.deepEqual(events.map((e) => e.data.recipient).sort(), ['angry@customer.test', 'gone@customer.test']);
    const gone = events.find((e) => e.data.recipient === 'gone@customer.test')!;
    assert.equal(gone.data.reason, 'bounce');
    assert.equal(gone.data.test, false);
    assert.equal(gone.data.subject, 'Hello');
    assert.deepEqual(gone.data.tags, [{ name: 'k', value: 'v' }]);
  });

  it('in a batch only the message naming a suppressed recipient fails; the others are sent', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    await addSuppression(harness().db, account.accountId, 'gone@customer.test', 'manual');
    const res = await world.app.call('POST', '/v1/email/batch', {
      token,
      body: [
        message({ to: 'a@customer.test' }),
        message({ to: 'b@customer.test', bcc: 'gone@customer.test' }),
        message({ to: 'c@customer.test' }),
      ],
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data[0].status, 'sent');
    assert.equal(res.body.data[1].error.code, 'recipient_suppressed');
    assert.match(res.body.data[1].error.message, /gone@customer\.test/);
    assert.equal(res.body.data[2].status, 'sent');
    const received = await world.smtp.waitForMessages(2);
    assert.deepEqual(received.map((m) => m.envelope.to).sort(), [['a@customer.test'], ['c@customer.test']]);
    const events = await suppressedEvents(account.accountId);
    assert.deepEqual(
      events.map((e) => e.data.recipient),
      ['gone@customer.test'],
    );
  });

  it('a test key is refused the same way, and its email.suppressed says test: true', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    await addSuppression(harness().db, account.accountId, 'gone@customer.test', 'manual');
    assertError(
      await world.app.call('POST', '/v1/email/send', { token, body: message({ to: 'gone@customer.test' }) }),
      422,
      'recipient_suppressed',
    );
    const [event] = await suppressedEvents(account.accountId);
    assert.equal(event.data.test, true);
  });

  it("another account's suppression does not refuse this account's send, and a removed suppression sends again", async () => {
    const account = await senderAccount();
    const other = await senderAccount();
    const { token } = await emailKey(account.accountId);
    await addSuppression(harness().db, other.accountId, 'jane@customer.test', 'bounce');
    assert.equal((await world.app.call('POST', '/v1/email/send', { token, body: message() })).status, 200);
    await addSuppression(harness().db, account.accountId, 'jane@customer.test', 'manual');
    assertError(await world.app.call('POST', '/v1/email/send', { token, body: message() }), 422, 'recipient_suppressed');
    await harness().db('email_suppressions').where({ account_id: account.accountId }).delete();
    assert.equal((await world.app.call('POST', '/v1/email/send', { token, body: message() })).status, 200);
  });
});
