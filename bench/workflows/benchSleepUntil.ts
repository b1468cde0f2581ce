import { sleep } from '@temporalio/workflow';

/** The bare timer of the schedule-fire baseline: sleeps to the instant (ms since the epoch) and ends. */
export async function benchSleepUntil(untilMs: number): Promise<void> {
  const remaining = untilMs - Date.now();
  if (remaining > 0) await sleep(remaining);
}
