import assert from 'node:assert/strict';
import { utcDay } from '../../../src/email/usage/recorder';
import { harness } from '../../helpers/harness';
import { assertError } from '../../marketing/grounding/fixtures';
import { eventually } from '../../jobs/jobTestKit';
import { emailKey, eventRows, message, messageRows, senderAccount, settledEmail, type SendWorld, useSendWorld } from './kit';

/** Revocation through the management route of the same app, as an owner would do it. */
async function revoke(world: SendWorld, ownerToken: string, keyId: string) {
  const res = await world.app.call('POST', `/api/email/keys/${keyId}/revoke`, { token: ownerToken });
  assert.equal(res.status, 200, res.text);
}

const dailySends = async (keyId: string) =>
  (await harness().db('email_key_daily_sends').where({ key_id: keyId }).first('sends'))?.sends ?? 0;

/**
 * Holds a request of the key at its daily cap, the last step before its commit point: today's counter row is
 * written by an open transaction, so the request's upsert waits for it. `request()` resolves once a request waits.
 */
async function holdDailyCap(keyId: string) {
  const { db } = harness();
  const trx = await db.transaction();
  await trx('email_key_daily_sends').insert({ key_id: keyId, day: utcDay(new Date()), sends: 0 });
  const { pid } = (await trx.raw('select pg_backend_pid() as pid')).rows[0];
  return {
    request: () =>
      eventually(
        async () => (await db.raw('select count(*)::int as n from pg_stat_activity where ? = any(pg_blocking_pids(pid))', [pid])).rows[0].n,
        (n: number) => n >= 1,
        5_000,
        'the request to wait for the daily cap',
      ),
    release: () => trx.commit(),
  };
}

describe('revoking an email key and sending', () => {
  let world: SendWorld;
  // A deferred message is retried two seconds later: time enough to revoke its key in between.
  useSendWorld((w) => (world = w), { config: { EMAIL_RETRY_INITIAL_SECONDS: 2 } });

  it('a revoked key answers 401 api_key_revoked at once', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId);
    const accepted = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(accepted.status, 202, accepted.text);
    await settledEmail(world, token, accepted.body.id);
    await revoke(world, account.ownerToken, id);
    assertError(await world.app.call('POST', '/v1/email/send', { token, body: message() }), 401, 'api_key_revoked');
    assertError(await world.app.call('POST', '/v1/email/batch', { token, body: [message()] }), 401, 'api_key_revoked');
    assert.equal(world.smtp.messages.length, 1);
    assert.equal((await messageRows(account.accountId)).length, 1);
  });

  it('a send whose key is revoked before it is accepted (still waiting for the daily cap) answers 401 and queues nothing', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { dailyCap: 10 });
    const hold = await holdDailyCap(id);
    const inFlight = world.app.call('POST', '/v1/email/send', { token, body: message() });
    try {
      // The request has passed authentication, its checks and the per-second limiter: only its commit point is left.
      await hold.request();
      await revoke(world, account.ownerToken, id);
    } finally {
      await hold.release();
    }
    assertError(await inFlight, 401, 'api_key_revoked');
    assert.deepEqual(await messageRows(account.accountId), [], 'nothing was queued');
    assert.deepEqual(await eventRows(account.accountId), [], 'and no event');
    assert.equal(world.smtp.connections, 0);
  });

  it('a batch whose key is revoked before it is accepted answers 401, queues nothing and gives its daily cap back', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { dailyCap: 10 });
    const hold = await holdDailyCap(id);
    const inFlight = world.app.call('POST', '/v1/email/batch', { token, body: [message(), message({ to: 'second@customer.test' })] });
    try {
      await hold.request();
      await revoke(world, account.ownerToken, id);
    } finally {
      await hold.release();
    }
    assertError(await inFlight, 401, 'api_key_revoked');
    assert.deepEqual(await messageRows(account.accountId), []);
    assert.equal(await dailySends(id), 0);
    assert.equal(world.smtp.connections, 0);
  });

  it('a message accepted before its key is revoked, and not yet handed to the relay, fails api_key_revoked and is never delivered', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId, { dailyCap: 10 });
    world.smtp.refuseNext('mail', { code: 451, message: '4.3.0 Try again later' });
    const accepted = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(await dailySends(id), 1, 'charged on acceptance');
    await eventually(
      () => world.app.call('GET', `/v1/email/emails/${accepted.body.id}`, { token }),
      (r) => r.body.status === 'deferred',
      10_000,
      'the first attempt to be deferred',
    );
    await revoke(world, account.ownerToken, id);

    // The revoked key reads nothing any more: another key of the account follows the email.
    const settled = await settledEmail(world, (await emailKey(account.accountId)).token, accepted.body.id);
    assert.equal(settled.body.status, 'failed');
    assert.equal(settled.body.error_code, 'api_key_revoked');
    assert.equal(settled.body.attempts, 2);
    assert.equal(settled.body.sent_at, null);
    assert.equal(settled.body.recipients[0].state, 'failed');
    assert.equal(settled.body.recipients[0].detail.code, 'api_key_revoked');
    assert.equal(world.smtp.messages.length, 0);
    assert.equal(world.smtp.dataReceived, 0, 'the relay never got the message');
    const events = await eventRows(account.accountId);
    assert.deepEqual(
      events.map((e) => e.type),
      ['email.delivery_delayed', 'email.failed'],
    );
    assert.equal(events[1].data.error.code, 'api_key_revoked');
    assert.equal(await dailySends(id), 0, 'the daily cap was refunded');
  });

  it('a message already handed to the relay when its key is revoked is delivered: revocation stops only what has not left', async () => {
    const account = await senderAccount();
    const { token, id } = await emailKey(account.accountId);
    world.smtp.dataDelayMs = 600;
    const accepted = await world.app.call('POST', '/v1/email/send', { token, body: message() });
    assert.equal(accepted.status, 202, accepted.text);
    await eventually(
      async () => world.smtp.dataReceived,
      (n) => n >= 1,
      10_000,
      'the end of the message at the relay',
    );
    await revoke(world, account.ownerToken, id);

    // The revoked key reads nothing any more: another key of the account follows the email.
    const settled = await settledEmail(world, (await emailKey(account.accountId)).token, accepted.body.id);
    assert.equal(settled.body.status, 'sent');
    assert.equal((await world.smtp.waitForMessages(1)).length, 1);
    assert.equal((await messageRows(account.accountId))[0].status, 'sent');
  });
});
