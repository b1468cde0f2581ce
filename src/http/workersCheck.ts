import type { AppDeps } from '../deps';
import { providersThatDiffer, readQueueFingerprints, type QueueFingerprint } from '../temporal/queueFingerprints';

/** How long one look at the queue's pollers serves `/readyz` and `/metrics`: probes and scrapes stay cheap. */
export const WORKERS_CACHE_MS = 5_000;
const TIMEOUT_MS = 2_000;

const cache = new WeakMap<object, Map<string, { at: number; view: Promise<QueueFingerprint[]> }>>();

/** The provider fingerprints of the workers polling the app's task queue, read at most once per WORKERS_CACHE_MS. */
export function queueFingerprintsOf(deps: AppDeps): Promise<QueueFingerprint[]> {
  const { client, namespace, taskQueue } = deps.temporal;
  let byQueue = cache.get(client);
  if (!byQueue) cache.set(client, (byQueue = new Map()));
  const key = `${namespace}\n${taskQueue}`;
  const hit = byQueue.get(key);
  if (hit && Date.now() - hit.at < WORKERS_CACHE_MS) return hit.view;
  const view = withinTimeout(
    client.connection.withDeadline(Date.now() + TIMEOUT_MS, () => readQueueFingerprints(client, namespace, taskQueue, deps.db)),
  );
  view.catch(() => undefined); // its readers see the failure
  byQueue.set(key, { at: Date.now(), view });
  return view;
}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export interface WorkersCheck {
  /** Whether the pollers could be read; it never makes the API unready. */
  ok: boolean;
  ms: number;
  task_queue: string;
  fingerprints: { fingerprint: string | null; workers: number }[];
  /** More than one fingerprint: some workers of the queue have other provider settings. */
  disagree: boolean;
  /** The providers that differ, among the fingerprints a worker of this database recorded. */
  differing: string[];
}

export async function checkWorkers(deps: AppDeps): Promise<{ check: WorkersCheck; warnings: string[] }> {
  const started = Date.now();
  const taskQueue = deps.temporal.taskQueue;
  let view: QueueFingerprint[];
  try {
    view = await queueFingerprintsOf(deps);
  } catch {
    const check = { ok: false, ms: Date.now() - started, task_queue: taskQueue, fingerprints: [], disagree: false, differing: [] };
    return { check, warnings: [] };
  }
  const differing = providersThatDiffer(view);
  const check: WorkersCheck = {
    ok: true,
    ms: Date.now() - started,
    task_queue: taskQueue,
    fingerprints: view.map((f) => ({ fingerprint: f.fingerprint, workers: f.workers })),
    disagree: view.length > 1,
    differing,
  };
  const warnings: string[] = [];
  if (!view.length) warnings.push(`no worker polls task queue "${taskQueue}": jobs wait until one does`);
  if (check.disagree)
    warnings.push(
      `the workers of task queue "${taskQueue}" carry ${view.length} provider fingerprints (${view.map((f) => f.fingerprint ?? 'none').join(', ')})` +
        `${differing.length ? `, differing in ${differing.join(', ')}` : ''}: jobs fail on the workers that lack a provider`,
    );
  return { check, warnings };
}

/** Sets `workyard_worker_fingerprints{task_queue}` for a scrape; unknown (Temporal unreachable) leaves no sample. */
export async function refreshWorkerFingerprintGauge(deps: AppDeps): Promise<void> {
  const labels = { task_queue: deps.temporal.taskQueue };
  try {
    deps.metrics.workerFingerprints.set(labels, (await queueFingerprintsOf(deps)).length);
  } catch {
    deps.metrics.workerFingerprints.remove(labels);
  }
}
