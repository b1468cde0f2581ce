import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startReplacementWorker, startWorkerChild, type WorkerChild } from '../../helpers/workerProcess';
import { removeTempDirs } from '../../runtime/child';
import { call } from '../../helpers/http';
import { eventually } from '../../jobs/jobTestKit';
import { emailKey, message, senderAccount, startSendWorld, type SendWorld } from '../send/kit';
import { inSeconds, jobIdOf, receivedOf, scheduledJobSettled } from './kit';

describe('scheduled sends: the timer survives a worker restart', function () {
  this.timeout(180_000);
  const taskQueue = `email-scheduled-kill-${randomBytes(4).toString('hex')}`;
  let world: SendWorld;
  let worker: WorkerChild | undefined;
  let replacement: { stop(): Promise<void> } | undefined;

  before(async () => {
    world = await startSendWorld({ temporal: { taskQueue } });
  });
  after(async () => {
    await worker?.kill();
    await replacement?.stop();
    await world?.close();
    await removeTempDirs();
  });

  it('a worker killed mid-wait is replaced; the email is delivered once, at its time', async () => {
    const config = { SMTP_URL: world.smtp.url };
    worker = await startWorkerChild(taskQueue, config);
    const account = await senderAccount();
    const { token } = await emailKey(account.accountId);
    const at = inSeconds(6);
    const res = await world.app.call('POST', '/v1/email/send', { token, body: message({ scheduled_at: at }) });
    assert.equal(res.status, 202, res.text);
    // The child answers the job's progress query: it has run the workflow's first task and armed its timer.
    await eventually(
      () => call('GET', `/api/jobs/${encodeURIComponent(jobIdOf(account.accountId, res.body.id))}`, { token: account.ownerToken }),
      (r) => r.status === 200 && r.body.progress?.phase === 'waiting',
      20_000,
      'the child to arm the timer',
    );
    await worker.kill();
    replacement = await startReplacementWorker(taskQueue, config);

    const done = await scheduledJobSettled(account.ownerToken, account.accountId, res.body.id, 60_000);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.deepEqual(done.result, { email_id: res.body.id, status: 'sent' });
    const received = receivedOf(world, res.body.messageId);
    assert.equal(received.length, 1, 'delivered once');
    assert.ok(received[0].receivedAt.getTime() >= Date.parse(at) - 50, 'at its time, not before');
  });
});
