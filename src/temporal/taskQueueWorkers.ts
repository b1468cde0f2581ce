import type { Client } from '@temporalio/client';
import { fingerprintOfIdentity } from './workerFingerprint';

// Temporal's TaskQueueType numbers: a worker polls both kinds of its queue.
const WORKFLOW = 1;
const ACTIVITY = 2;

export interface QueueWorker {
  identity: string;
  /** null: the worker advertises no fingerprint (another program, or a release before fingerprints). */
  fingerprint: string | null;
}

/**
 * The workers polling `taskQueue`, by identity, as Temporal's DescribeTaskQueue has them (two RPCs, one per task
 * kind). The server forgets a poller a few minutes after its last poll, so a stopped worker drops out on its own.
 */
export async function queueWorkers(client: Client, namespace: string, taskQueue: string): Promise<QueueWorker[]> {
  const answers = await Promise.all(
    [WORKFLOW, ACTIVITY].map((taskQueueType) =>
      client.workflowService.describeTaskQueue({ namespace, taskQueue: { name: taskQueue }, taskQueueType }),
    ),
  );
  const identities = new Set(answers.flatMap((a) => (a.pollers ?? []).map((p) => p.identity ?? '')).filter(Boolean));
  return [...identities].sort().map((identity) => ({ identity, fingerprint: fingerprintOfIdentity(identity) }));
}

export interface FingerprintCount {
  fingerprint: string | null;
  workers: number;
}

/** Distinct fingerprints among the workers (a worker without one counts as the fingerprint null), most workers first. */
export function countFingerprints(workers: QueueWorker[]): FingerprintCount[] {
  const counts = new Map<string | null, number>();
  for (const w of workers) counts.set(w.fingerprint, (counts.get(w.fingerprint) ?? 0) + 1);
  return [...counts]
    .map(([fingerprint, n]) => ({ fingerprint, workers: n }))
    .sort((a, b) => b.workers - a.workers || String(a.fingerprint).localeCompare(String(b.fingerprint)));
}
