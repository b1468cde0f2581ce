import assert from 'node:assert/strict';
import { eventually } from '../../jobs/jobTestKit';
import { flushUsage } from '../../../src/email/usage/record';
import { emailKey, eventRows, idOf, mail, messageRows, senderAccount, startSmtpWorld, submit, type SmtpWorld } from './kit';

describe('SMTP submission: sending', () => {
  let world: SmtpWorld;
  before(async () => {
    world = await startSmtpWorld();
  });
  after(async () => {
    await world.close();
  });
  beforeEach(() => world.smtp.reset());

  it('a test key accepts and simulates: 250 with the id, nothing at the relay, nothing stored', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId, { environment: 'test' });
    const result = await submit(world, token, mail());
    assert.ok(result.ok, result.response);
    assert.match(result.response, /^250 2\.0\.0 OK id=[0-9a-f-]{36} message-id=<[0-9a-f-]{36}@mail\.example\.test> status=simulated/);
    assert.equal(world.smtp.messages.length, 0);
    assert.deepEqual(await messageRows(account.accountId), []);
  });

  it('a live key delivers exactly like REST: the relay gets it (bcc from the envelope only, attachments kept), email.sent is recorded', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const result = await submit(
      world,
      token,
      mail({
        cc: 'copy@customer.test',
        bcc: 'hidden@customer.test',
        html: '<p>Hi Jane</p>',
        headers: { 'X-Campaign': 'spring' },
        attachments: [{ filename: 'note.txt', content: 'attached text', contentType: 'text/plain' }],
      }),
    );
    assert.ok(result.ok, result.response);
    const id = idOf(result.response);
    const [received] = await world.smtp.waitForMessages(1);
    assert.equal(received.envelope.from, 'support@mail.example.test');
    assert.deepEqual(received.envelope.to.sort(), ['copy@customer.test', 'hidden@customer.test', 'jane@customer.test']);
    const raw = received.raw.toString();
    assert.doesNotMatch(raw, /hidden@customer\.test/, 'bcc is never in the headers');
    assert.match(raw, /X-Campaign: spring/);
    assert.match(raw, new RegExp(`Message-ID: <${id}@mail\\.example\\.test>`));
    assert.match(raw, /filename=note\.txt/);
    assert.match(raw, /YXR0YWNoZWQgdGV4dA==|attached text/);
    assert.match(result.response, /status=queued/);
    const [row] = await eventually(
      () => messageRows(account.accountId),
      (rows) => rows[0]?.status === 'sent',
      10_000,
      'the submitted message to be sent',
    );
    assert.equal(row.id, id);
    const [event] = await eventRows(account.accountId);
    assert.equal(event.type, 'email.sent');
    assert.equal(event.data.email_id, id);
  });

  it('the Idempotency-Key header replays the first answer: same id, one delivery', async () => {
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const message = mail({ headers: { 'Idempotency-Key': 'order-42-receipt' } });
    const first = await submit(world, token, message);
    const again = await submit(world, token, message);
    assert.ok(first.ok && again.ok, `${first.response} / ${again.response}`);
    assert.equal(idOf(again.response), idOf(first.response));
    assert.match(again.response, /idempotent replay/);
    await world.smtp.waitForMessages(1);
    assert.equal(world.smtp.messages.length, 1);
    assert.doesNotMatch(world.smtp.messages[0].raw.toString(), /Idempotency-Key/i, 'the header is not sent on');
    const other = await submit(world, token, mail({ subject: 'Another', headers: { 'Idempotency-Key': 'order-42-receipt' } }));
    assert.equal(other.ok, false, 'the same key with another message is refused');
    assert.match(other.response, /^554 5\.6\.0 idempotency_key_reused/);
  });

  it("sends are counted in the key's usage", async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { environment: 'test' });
    assert.ok((await submit(world, token, mail())).ok);
    assert.ok((await submit(world, token, mail())).ok);
    await flushUsage();
    const res = await world.app.call('GET', `/api/email/keys/${id}`, { token: account.ownerToken });
    assert.equal(res.body.usage.sends_lifetime, 2, res.text);
    assert.ok(res.body.usage.last_used_at, res.text);
  });
});
