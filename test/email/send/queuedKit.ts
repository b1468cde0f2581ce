import assert from 'node:assert/strict';
import { call, type CallResult } from '../../helpers/http';
import { eventually } from '../../jobs/jobTestKit';
import { startSendWorld, type SendWorld } from './kit';

/** A send world (its jobs delivered by a worker of its own, sending through the world's relay) and its task queue. */
export interface QueuedWorld extends SendWorld {
  taskQueue: string;
}

export async function startQueuedWorld(options: Parameters<typeof startSendWorld>[0] = {}): Promise<QueuedWorld> {
  const world = await startSendWorld(options);
  return { ...world, taskQueue: world.app.deps.temporal.taskQueue };
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
