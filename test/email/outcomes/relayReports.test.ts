import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { messageOutcomes } from '../../../src/email/outcomes';
import { harness } from '../../helpers/harness';
import { assertError } from '../../marketing/grounding/fixtures';
import { emailKey, message, senderAccount } from '../send/kit';
import { eventsOf, eventuallyEvents, RETURN_DOMAIN, startOutcomeWorld, suppressionRows, type OutcomeWorld } from './kit';

// GET /v1/email/emails/{id} shows the outcomes once the lead merges messageOutcomes into its route (emailRoute.ts).
const routeWired = readFileSync(require.resolve('../../../src/email/send/emailRoute.ts'), 'utf8').includes('messageOutcomes');

describe('delivery outcomes from the relay’s DSNs and feedback reports', () => {
  let world: OutcomeWorld;

  before(async () => {
    world = await startOutcomeWorld();
  });
  afterEach(() => world.smtp.reset());
  after(async () => {
    await world.close();
  });

  async function send(to: string) {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ to }) });
    assert.equal(res.status, 200, res.text);
    return { account, token, id: res.body.id as string };
  }

  it('a live send goes out with the VERP return path and asks for DSNs', async () => {
    const { id } = await send('jane@customer.test');
    const [received] = await world.smtp.waitForMessages(1);
    assert.equal(received.envelope.from, `bounces+${id}@${RETURN_DOMAIN}`);
    assert.equal(received.parsed.header('from'), 'Acme Support <support@mail.example.test>', 'the From header is unchanged');
  });

  it('a success DSN → email.delivered, delivered_at and state delivered', async () => {
    const { account, id } = await send('jane@customer.test');
    const rows = await eventuallyEvents(account.accountId, ['email.delivered']);
    const delivered = rows.find((r) => r.type === 'email.delivered')!;
    assert.equal(delivered.data.email_id, id);
    assert.equal(delivered.data.recipient, 'jane@customer.test');
    assert.equal(delivered.data.status, '2.0.0');
    const outcomes = (await messageOutcomes(harness().db, account.accountId, id))!;
    assert.equal(outcomes.state, 'delivered');
    assert.ok(outcomes.delivered_at);
    assert.deepEqual(
      outcomes.events.map((e) => e.type),
      ['email.sent', 'email.delivered'],
    );
    assert.deepEqual(await suppressionRows(account.accountId), []);
  });

  it('a failure DSN (5.1.1) → email.bounced, the address suppressed, and the next send to it is 422', async () => {
    const { account, token, id } = await send('bounced@customer.test');
    const rows = await eventuallyEvents(account.accountId, ['email.bounced']);
    const bounced = rows.find((r) => r.type === 'email.bounced')!;
    assert.equal(bounced.data.recipient, 'bounced@customer.test');
    assert.equal(bounced.data.status, '5.1.1');
    assert.equal(bounced.data.bounce_type, 'hard');
    assert.equal(bounced.data.suppressed, true);
    assert.match(String(bounced.data.diagnostic_code), /550 5\.1\.1/);
    assert.deepEqual(await suppressionRows(account.accountId), [{ email: 'bounced@customer.test', reason: 'bounce', message_id: id }]);
    const outcomes = (await messageOutcomes(harness().db, account.accountId, id))!;
    assert.equal(outcomes.state, 'bounced');
    assert.ok(outcomes.bounced_at);
    assert.equal(outcomes.delivered_at, null);
    assertError(
      await world.app.call('POST', '/v1/email/send', { token, body: message({ to: 'Bounced@customer.test' }) }),
      422,
      'recipient_suppressed',
    );
  });

  it('a delay DSN → email.delivery_delayed, not suppressed', async () => {
    const { account, id } = await send('delayed@customer.test');
    await eventuallyEvents(account.accountId, ['email.delivery_delayed']);
    const outcomes = (await messageOutcomes(harness().db, account.accountId, id))!;
    assert.equal(outcomes.state, 'delivery_delayed');
    assert.ok(outcomes.delayed_at);
    assert.equal(outcomes.events.at(-1)!.detail.status, '4.4.7');
    assert.deepEqual(await suppressionRows(account.accountId), []);
  });

  it('an ARF feedback report → email.complained after email.delivered, and the address suppressed', async () => {
    const { account, id } = await send('complained@customer.test');
    await eventuallyEvents(account.accountId, ['email.delivered', 'email.complained']);
    const complained = (await eventsOf(account.accountId, ['email.complained']))[0];
    assert.equal(complained.data.feedback_type, 'abuse');
    assert.equal(complained.data.recipient, 'complained@customer.test');
    assert.deepEqual(await suppressionRows(account.accountId), [
      { email: 'complained@customer.test', reason: 'complaint', message_id: id },
    ]);
    const outcomes = (await messageOutcomes(harness().db, account.accountId, id))!;
    assert.equal(outcomes.state, 'complained');
    assert.ok(outcomes.complained_at && outcomes.delivered_at);
  });

  it('each recipient gets its own outcome; only the bounced one is suppressed', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const res = await world.app.call('POST', '/v1/email/send', {
      token,
      body: message({ to: 'ok@customer.test', cc: 'bounced@customer.test', bcc: 'elsewhere@unsimulated.test' }),
    });
    assert.equal(res.status, 200, res.text);
    await eventuallyEvents(account.accountId, ['email.delivered', 'email.bounced']);
    await world.smtp.reportsSettled();
    await world.returnPath.idle();
    const outcomes = (await messageOutcomes(harness().db, account.accountId, res.body.id))!;
    assert.deepEqual(outcomes.events.map((e) => `${e.type} ${e.recipient ?? ''}`).sort(), [
      'email.bounced bounced@customer.test',
      'email.delivered ok@customer.test',
      'email.sent ',
    ]);
    assert.equal(outcomes.state, 'bounced');
    assert.deepEqual(
      (await suppressionRows(account.accountId)).map((s) => s.email),
      ['bounced@customer.test'],
    );
  });

  (routeWired ? it : it.skip)('GET /v1/email/emails/{id} answers the state, the events and their times', async () => {
    const { account, token, id } = await send('bounced@customer.test');
    await eventuallyEvents(account.accountId, ['email.bounced']);
    const res = await world.app.call('GET', `/v1/email/emails/${id}`, { token });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'sent');
    assert.equal(res.body.state, 'bounced');
    assert.equal(res.body.last_event, 'email.bounced');
    assert.ok(res.body.bounced_at);
    assert.deepEqual(
      res.body.events.map((e: { type: string }) => e.type),
      ['email.sent', 'email.bounced'],
    );
    assert.equal(res.body.events[1].detail.status, '5.1.1');
  });

  it("another account cannot read an email's outcomes", async () => {
    const { id } = await send('jane@customer.test');
    const other = await senderAccount();
    assert.equal(await messageOutcomes(harness().db, other.accountId, id), null);
    assert.equal(await messageOutcomes(harness().db, other.accountId, 'not-a-uuid'), null);
  });
});
