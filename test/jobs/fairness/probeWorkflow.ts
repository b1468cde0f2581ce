import { proxyActivities } from '@temporalio/workflow';
import type { ProbeActivities } from './probeContract';

// Eager dispatch would hand the activity to the worker completing the workflow task, past the task queue: the
// test is about how the queue's backlog is dispatched, so every probe goes through matching.
const { probeWork } = proxyActivities<ProbeActivities>({ startToCloseTimeout: '1 minute', allowEagerDispatch: false });

/** Test-only (fairness.test.ts): one activity that holds the worker's only activity slot for a while. */
export async function fairnessProbeWorkflow(label: string): Promise<string> {
  await probeWork(label);
  return label;
}
