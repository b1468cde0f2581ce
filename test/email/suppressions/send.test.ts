import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { assertError } from '../../marketing/grounding/fixtures';
import { addSuppression } from '../../../src/email/suppressions/service';
import { emailKey, eventRows, message, messageRows, senderAccount, settledEmail, sleep, type SendWorld, useSendWorld } from '../send/kit';
import { batchJobSettled } from '../send/queuedKit';

describe('sending to a suppressed address', () => {
  let world: SendWorld;
  useSendWorld((w) => (world = w));

  const suppressedEvents = async (accountId: string) => (await eventRows(accountId)).filter((e) => e.type === 'email.suppressed');
  const byEmail = <R extends { email: string }>(recipients: R[]) => [...recipients].sort((a, b) => a.email.localeCompare(b.email));

  it('a live send skips its suppressed recipients (any case, cc or bcc): 202 naming each skipped with its reason, delivered to the others, an email.suppressed each', async () => {
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
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(res.body.recipients, [
      { email: 'jane@customer.test', type: 'to', state: 'queued' },
      { email: 'gone@customer.test', type: 'cc', state: 'skipped', reason: 'bounce' },
      { email: 'angry@customer.test', type: 'bcc', state: 'skipped', reason: 'complaint' },
    ]);

    const settled = await settledEmail(world, token, res.body.id);
    assert.equal(settled.body.status, 'sent');
    assert.deepEqual(
      byEmail<{ email: string; state: string; reason?: string }>(settled.body.recipients).map((r) => [r.email, r.state, r.reason]),
      [
        ['angry@customer.test', 'skipped', 'complaint'],
        ['gone@customer.test', 'skipped', 'bounce'],
        ['jane@customer.test', 'sent', undefined],
      ],
    );
    const [received] = await world.smtp.waitForMessages(1);
    assert.deepEqual(received.envelope.to, ['jane@customer.test'], 'only the others are in the envelope');
    assert.deepEqual((await eventRows(account.accountId)).find((e) => e.type === 'email.sent')?.data.recipients, ['jane@customer.test']);

    const events = await suppressedEvents(account.accountId);
    assert.deepEqual(events.map((e) => e.data.recipient).sort(), ['angry@customer.test', 'gone@customer.test']);
    const gone = events.find((e) => e.data.recipient === 'gone@customer.test')!;
    assert.equal(gone.data.reason, 'bounce');
    assert.equal(gone.data.test, false);
    assert.equal(gone.data.subject, 'Hello');
    assert.deepEqual(gone.data.tags, [{ name: 'k', value: 'v' }]);
  });

  it('a live send whose every recipient is suppressed answers 422 recipient_suppressed, stores and sends nothing and emits email.suppressed', async () => {
    const account = await senderAccount();
    const { token, id: keyId } = await emailKey(account.accountId, { dailyCap: 5 });
    await addSuppression(harness().db, account.accountId, 'gone@customer.test', 'bounce');
    await addSuppression(harness().db, account.accountId, 'angry@customer.test', 'complaint');
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: 'GONE@customer.test', bcc: 'angry@customer.test' }),
    });
    assertError(res, 422, 'recipient_suppressed');
    assert.deepEqual(byEmail(res.body.recipients), [
      { email: 'angry@customer.test', reason: 'complaint' },
      { email: 'gone@customer.test', reason: 'bounce' },
    ]);
    assert.match(res.body.message, /gone@customer\.test/);
    await sleep(100);
    assert.equal(world.smtp.dataReceived, 0, 'nothing reached the relay');
    assert.deepEqual(await messageRows(account.accountId), []);
    const daily = await harness().db('email_key_daily_sends').where({ key_id: keyId }).first('sends');
    assert.equal(daily?.sends ?? 0, 0, 'nothing counted');
    const events = await suppressedEvents(account.accountId);
    assert.deepEqual(events.map((e) => e.data.recipient).sort(), ['angry@customer.test', 'gone@customer.test']);
  });

  it('in a batch a message is sent to its recipients that are not suppressed; only a message whose every recipient is suppressed fails', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    await addSuppression(harness().db, account.accountId, 'gone@customer.test', 'manual');
    const res = await world.app.call('POST', '/v1/email/batch', {
      token,
      body: [
        message({ to: 'a@customer.test' }),
        message({ to: 'b@customer.test', bcc: 'gone@customer.test' }),
        message({ to: 'gone@customer.test' }),
      ],
    });
    assert.equal(res.status, 202, res.text);
    const [plain, partly, suppressed] = res.body.data;
    assert.equal(plain.status, 'queued');
    assert.equal(partly.status, 'queued');
    assert.deepEqual(partly.recipients, [
      { email: 'b@customer.test', type: 'to', state: 'queued' },
      { email: 'gone@customer.test', type: 'bcc', state: 'skipped', reason: 'manual' },
    ]);
    assert.equal(suppressed.error.code, 'recipient_suppressed');
    assert.match(suppressed.error.message, /gone@customer\.test/);
    assert.deepEqual(suppressed.error.recipients, [{ email: 'gone@customer.test', reason: 'manual' }]);

    await batchJobSettled(account.ownerToken, res.body.job_id);
    const received = await world.smtp.waitForMessages(2);
    assert.deepEqual(received.map((m) => m.envelope.to).sort(), [['a@customer.test'], ['b@customer.test']]);
    assert.equal((await settledEmail(world, token, partly.id)).body.status, 'sent');
    const events = await suppressedEvents(account.accountId);
    assert.deepEqual(
      events.map((e) => e.data.recipient),
      ['gone@customer.test', 'gone@customer.test'],
    );
  });

  it('a test key skips and refuses the same way, and its email.suppressed says test: true', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    await addSuppression(harness().db, account.accountId, 'gone@customer.test', 'manual');
    assertError(
      await world.app.call('POST', '/v1/email/send', { token, body: message({ to: 'gone@customer.test' }) }),
      422,
      'recipient_suppressed',
    );
    const partly = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: ['gone@customer.test', 'jane@customer.test'] }),
    });
    assert.equal(partly.status, 200, partly.text);
    assert.equal(partly.body.status, 'simulated');
    assert.deepEqual(partly.body.recipients, [
      { email: 'gone@customer.test', type: 'to', state: 'skipped', reason: 'manual' },
      { email: 'jane@customer.test', type: 'to', state: 'simulated' },
    ]);
    const events = await suppressedEvents(account.accountId);
    assert.equal(events.length, 2);
    assert.ok(events.every((e) => e.data.test === true));
  });

  it("another account's suppression does not skip this account's recipient, and a removed suppression sends again", async () => {
    const account = await senderAccount();
    const other = await senderAccount();
    const { token } = await emailKey(account.accountId);
    await addSuppression(harness().db, other.accountId, 'jane@customer.test', 'bounce');
    const first = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(first.status, 202, first.text);
    assert.equal(first.body.recipients[0].state, 'queued');
    await addSuppression(harness().db, account.accountId, 'jane@customer.test', 'manual');
    assertError(await world.app.call('POST', '/v1/email/send', { token, body: message() }), 422, 'recipient_suppressed');
    await harness().db('email_suppressions').where({ account_id: account.accountId }).delete();
    const again = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(again.status, 202, again.text);
    for (const id of [first.body.id, again.body.id]) assert.equal((await settledEmail(world, token, id)).body.status, 'sent');
  });
});
