import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { createActivities } from '../../../src/app/activities';
import { createWorker } from '../../../src/temporal/worker';
import { harness } from '../../helpers/harness';
import { call, type CallResult } from '../../helpers/http';
import { eventually } from '../../jobs/jobTestKit';
import { startSendWorld, type SendWorld } from './kit';

/** A send world whose queued batches are delivered by a worker of its own, sending through the world's relay. */
export interface QueuedWorld extends SendWorld {
  taskQueue: string;
}

export async function startQueuedWorld(): Promise<QueuedWorld> {
  const { bundle, temporalAddress, temporalSecurity, deps: base } = harness();
  const taskQueue = `email-batch-${randomBytes(4).toString('hex')}`;
  const world = await startSendWorld({ temporal: { taskQueue } });
  const { worker, connection } = await createWorker({
    address: temporalAddress,
    security: temporalSecurity,
    namespace: base.temporal.namespace,
    taskQueue,
    bundle,
    activities: createActivities({ config: world.app.deps.config, db: base.db, logger: base.logger }),
  });
  const running = worker.run();
  return {
    ...world,
    taskQueue,
    async close() {
      worker.shutdown();
      await running;
      await connection.close();
      await world.close();
    },
  };
}

export const batchOf = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    from: 'Acme Support <support@mail.example.test>',
    to: `r${i}@customer.test`,
    subject: `Message ${i}`,
    text: `Hi ${i}`,
  }));

/** Waits until the batch's job has closed, through GET /api/jobs/{id} with the owner's session. */
export async function batchJobSettled(ownerToken: string, jobId: string, timeoutMs = 60_000): Promise<CallResult> {
  const res = await eventually(
    () => call('GET', `/api/jobs/${encodeURIComponent(jobId)}`, { token: ownerToken }),
    (r) => r.status === 200 && r.body.status !== 'running',
    timeoutMs,
    `batch job ${jobId} to close`,
  );
  assert.equal(res.body.status, 'completed', res.text);
  return res;
}

/** The most sends found in any one-second window (measured where they arrive: the relay). */
export function mostInOneSecond(times: Date[]): number {
  const sorted = times.map((t) => t.getTime()).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= 1_000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
