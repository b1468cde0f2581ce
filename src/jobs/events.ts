import { createHash } from 'node:crypto';
import type { TemporalDeps } from '../deps';
import type { ServerSentEvent } from '../http/eventStream';
import { describeRun, jobFromRun, jobStatusOf } from '../temporal/jobView';
import type { Job } from './schemas';
import { ownedRun } from './service';

/**
 * A job's live updates as Server-Sent Events. An event id is `<history length>-<state digest>`, the digest a hash of
 * what the client then knows (run, status, cancel_requested, progress), and `-end` on the final event. Ids are
 * derived from the job, not from a connection, so any replica resumes any stream: a `Last-Event-ID` whose digest
 * matches the job as it is now gets nothing resent, one that ends in `-end` means the client has seen it all.
 */

export const FINAL_EVENTS = ['completed', 'failed', 'canceled', 'terminated', 'timed_out'] as const;

export interface JobSnapshot {
  /** History length of the run the job was read from: it only grows while the run is open. */
  history: number;
  job: Job;
}

export interface SeenEvent {
  history: number;
  digest: string;
  final: boolean;
}

const EVENT_ID = /^(\d{1,12})-([A-Za-z0-9_-]{16})(-end)?$/;

/** A `Last-Event-ID` this stream handed out, or null for anything else (a fresh start). */
export function parseEventId(value: string | undefined): SeenEvent | null {
  const match = value ? EVENT_ID.exec(value) : null;
  return match ? { history: Number(match[1]), digest: match[2], final: match[3] !== undefined } : null;
}

export function digestOf(job: Job): string {
  const state = { run_id: job.run_id, status: job.status, cancel_requested: job.cancel_requested, progress: job.progress };
  return createHash('sha256').update(JSON.stringify(state)).digest('base64url').slice(0, 16);
}

const isClosed = (job: Job) => job.status !== 'running';

function idOf(snapshot: JobSnapshot, final = false): string {
  return `${snapshot.history}-${digestOf(snapshot.job)}${final ? '-end' : ''}`;
}

const statusEvent = (s: JobSnapshot): ServerSentEvent => ({ event: 'status', id: idOf(s), data: s.job });
const progressEvent = (s: JobSnapshot): ServerSentEvent => ({ event: 'progress', id: idOf(s), data: s.job.progress });
const finalEvent = (s: JobSnapshot): ServerSentEvent => ({ event: s.job.status, id: idOf(s, true), data: s.job });

/** The account's job as it is now, with the history length its id is built from; 404 `job_not_found` otherwise. */
export async function snapshotOf(temporal: TemporalDeps, accountId: string, id: string): Promise<JobSnapshot> {
  const run = await ownedRun(temporal, accountId, id);
  return { history: run.historyLength, job: await jobFromRun(temporal, run) };
}

/** The client already has the final event of this closed job: there is nothing left to send (answer 204). */
export function hasSeenTheEnd(snapshot: JobSnapshot, seen: SeenEvent | null): boolean {
  return isClosed(snapshot.job) && seen !== null && seen.final && seen.digest === digestOf(snapshot.job);
}

export interface WatchOptions {
  pollMs: number;
  signal: AbortSignal;
}

/**
 * The events of a job from `first` on, leaving out the state the client has (`seen`). While it runs, one describe per
 * tick; the progress query only when the history grew (the state can change only then), and a long poll on the
 * result ends the wait as soon as it closes. Stops when the job closed (after its final event) or `signal` aborts.
 */
export async function* jobEvents(
  temporal: TemporalDeps,
  first: JobSnapshot,
  seen: SeenEvent | null,
  { pollMs, signal }: WatchOptions,
): AsyncGenerator<ServerSentEvent> {
  let current = first;
  if (!seen || (seen.digest !== digestOf(current.job) && !isClosed(current.job))) yield statusEvent(current);
  if (isClosed(current.job)) {
    yield finalEvent(current);
    return;
  }

  // The long poll on the result cuts the wait short once; after that (closed, or the poll failed) the ticks go on alone.
  const early: Wake = {};
  const closePoll = new AbortController();
  const stopClosePoll = () => closePoll.abort();
  signal.addEventListener('abort', stopClosePoll, { once: true });
  void untilClosed(temporal, current.job.id, closePoll.signal).then(() => early.wake?.());
  try {
    while (!signal.aborted) {
      await delay(pollMs, signal, early);
      if (signal.aborted) return;
      const run = await describeRun(temporal, current.job.id);
      if (!run) return;
      const cancelRequested = Boolean(run.raw.workflowExtendedInfo?.cancelRequested);
      const unchanged =
        run.historyLength === current.history && run.runId === current.job.run_id && cancelRequested === current.job.cancel_requested;
      if (unchanged && jobStatusOf(run) === 'running') continue;

      const next: JobSnapshot = { history: run.historyLength, job: await jobFromRun(temporal, run) };
      if (isClosed(next.job)) {
        yield finalEvent(next);
        return;
      }
      // A query that did not answer in time reads as null: keep what the client has and ask again next tick.
      if (next.job.progress === null && current.job.progress !== null) {
        next.job.progress = current.job.progress;
        next.history = current.history;
      }
      const statusChanged =
        next.job.status !== current.job.status ||
        next.job.cancel_requested !== current.job.cancel_requested ||
        next.job.run_id !== current.job.run_id;
      if (statusChanged) yield statusEvent(next);
      else if (JSON.stringify(next.job.progress) !== JSON.stringify(current.job.progress)) yield progressEvent(next);
      current = next;
    }
  } finally {
    signal.removeEventListener('abort', stopClosePoll);
    closePoll.abort();
  }
}

/** Settles once the workflow closed, whatever its outcome (or the long poll failed or was aborted): "look now". */
function untilClosed(temporal: TemporalDeps, workflowId: string, signal: AbortSignal): Promise<void> {
  const { client } = temporal;
  return client
    .withAbortSignal(signal, () => client.workflow.getHandle(workflowId).result())
    .then(
      () => undefined,
      () => undefined,
    );
}

interface Wake {
  wake?: () => void;
}

/** Waits `ms`, or less when `signal` aborts or `early.wake()` is called meanwhile. */
function delay(ms: number, signal: AbortSignal, early: Wake): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      early.wake = undefined;
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
    early.wake = done;
  });
}
