import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { harness } from '../../helpers/harness';
import { startReplacementWorker, startWorkerChild } from '../../helpers/workerProcess';
import { eventually } from '../../jobs/jobTestKit';
import { emailKey, message, senderAccount, startSendWorld } from './kit';

const BACKLOG = 200;

describe('the durable send queue under a backlog and a killed worker', function () {
  this.timeout(240_000);

  it('sends accepted while no worker runs are each delivered once a worker comes; a worker killed mid-backlog loses none and resends only what it was sending', async () => {
    const taskQueue = `email-backlog-${randomBytes(4).toString('hex')}`;
    // No worker on the queue yet: every accepted send waits in the backlog.
    const world = await startSendWorld({ temporal: { taskQueue } });
    const { db } = harness();
    let replacement: { stop(): Promise<void> } | undefined;
    try {
      const account = await senderAccount();
      const { token } = await emailKey(account.accountId, { ratePerSecond: 10_000 });
      const ids: string[] = [];
      for (let i = 0; i < BACKLOG; i += 20) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, j) =>
            world.app.call('POST', '/v1/email/send', { token, body: message({ to: `reader${i + j}@customer.test` }) }),
          ),
        );
        for (const res of answers) {
          assert.equal(res.status, 202, res.text);
          ids.push(res.body.id);
        }
      }
      const queued = await db('email_messages')
        .where({ account_id: account.accountId, status: 'queued' })
        .count<{ count: string }[]>('* as count');
      assert.equal(Number(queued[0].count), BACKLOG, 'the whole backlog waits, nothing lost');

      const child = await startWorkerChild(taskQueue, { SMTP_URL: world.smtp.url });
      await eventually(
        async () => world.smtp.messages.length,
        (n) => n >= BACKLOG / 4,
        60_000,
        'a quarter of the backlog at the relay',
      );
      await child.kill();
      assert.ok(world.smtp.messages.length < BACKLOG, 'the worker was killed with part of the backlog still to send');
      // What the killed worker had claimed and not recorded: the only messages that may reach the relay twice.
      const cut = await db('email_messages').where({ account_id: account.accountId, status: 'sending' }).select('id');

      replacement = await startReplacementWorker(taskQueue, { SMTP_URL: world.smtp.url });
      await eventually(
        () =>
          db('email_messages')
            .where({ account_id: account.accountId })
            .whereNot({ status: 'sent' })
            .count<{ count: string }[]>('* as count'),
        (rows) => Number(rows[0].count) === 0,
        150_000,
        'every message of the backlog to be sent',
      );
      const arrived = world.smtp.messages.map((m) => m.parsed.header('message-id'));
      const distinct = new Set(arrived);
      assert.equal(distinct.size, BACKLOG, 'every accepted message reached the relay');
      const resent = arrived.length - distinct.size;
      assert.ok(resent <= cut.length, `${resent} messages reached the relay twice, but the killed worker was sending only ${cut.length}`);
      const sentEvents = await db('email_events')
        .where({ account_id: account.accountId, type: 'email.sent' })
        .count<{ count: string }[]>('* as count');
      assert.equal(Number(sentEvents[0].count), BACKLOG, 'one email.sent per message');
    } finally {
      await replacement?.stop();
      await world.close();
    }
  });
});
