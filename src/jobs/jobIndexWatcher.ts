import { WorkflowNotFoundError } from '@temporalio/client';
import type { AppDeps } from '../deps';
import { recordJobClosed } from '../alerts/service';
import { OutboxRelay, RelayWakeups, type PassResult } from '../temporal/outboxRelay';
import { accountOfRun, jobSummaryOf, type RunInfo } from '../temporal/jobView';
import { withTemporal } from '../temporal/rpc';
import { SYSTEM_ACCOUNT } from '../temporal/searchAttributes';
import { jobIndexRowOf } from './jobIndex';
import {
  claimUncheckedRuns,
  dropJobRuns,
  jobIndexBackfilled,
  markJobIndexBackfilled,
  purgeJobRunsClosedBefore,
  upsertJobRuns,
  type JobIndexRow,
} from './jobIndexStore';
import { listRuns } from './visibility';

type WatcherDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger' | 'secretHashKey'>;

/** Pause between passes. */
export const JOB_INDEX_EVERY_MS = 2_000;
/** How far back the first pass of a process looks (a restart misses nothing that happened within it). */
export const JOB_INDEX_LOOKBACK_MS = 60 * 60_000;
/** Each window re-reads this much before the previous one ended: visibility records a change a moment after it. */
const OVERLAP_MS = 30_000;
/** Runs per visibility page (the server's default maximum), and pages one query reads per pass (it continues next pass). */
const PAGE = 1_000;
const PAGES_PER_PASS = 5;
/** A running row not confirmed for this long is asked about directly (a close visibility showed too late to be read). */
const CHECK_AFTER_MS = 10 * 60_000;
const CHECKS_PER_PASS = 20;
const PURGE_EVERY_MS = 60 * 60_000;

const FAILURE: Record<'terminated' | 'timed_out', { type: string; message: string }> = {
  terminated: { type: 'job_terminated', message: 'the job was terminated' },
  timed_out: { type: 'job_timed_out', message: 'the job ran past its time limit' },
};

/** A visibility query read page by page across passes; a new window starts when the previous one is read to its end. */
class Window {
  private since: Date;
  private token?: Buffer;
  private startedAt?: Date;
  private query?: string;

  constructor(
    private readonly clause: (since: string) => string,
    lookbackMs: number,
  ) {
    this.since = new Date(Date.now() - lookbackMs);
  }

  /** Reads up to PAGES_PER_PASS pages of the current window, handing each page's runs to `take`. */
  async read(deps: WatcherDeps, take: (runs: RunInfo[]) => Promise<void>): Promise<number> {
    if (!this.query) {
      this.startedAt = new Date();
      this.query = this.clause(this.since.toISOString());
    }
    let read = 0;
    for (let pages = 0; pages < PAGES_PER_PASS; pages++) {
      const page = await listRuns(deps.temporal, this.query, PAGE, this.token);
      read += page.runs.length;
      await take(page.runs);
      if (!page.nextPageToken) {
        this.since = new Date((this.startedAt ?? new Date()).getTime() - OVERLAP_MS);
        this.query = undefined;
        this.token = undefined;
        return read;
      }
      this.token = Buffer.from(page.nextPageToken);
    }
    return read;
  }
}

const ACCOUNT_JOBS = `AccountId != '${SYSTEM_ACCOUNT}'`;

/**
 * Keeps the job index (src/jobs/jobIndex.ts) in step with Temporal. The API records each start and each job reports
 * its close; this watcher, run by every API process, takes what those do not see: runs started elsewhere (child
 * workflows, an operator), closes that run no workflow code (cancellations, terminations, timeouts), continued-as-new
 * chains, and, once, the runs that existed before the index. It reads visibility in windows of start and close time,
 * a few requests per pass whatever the request load; a running row it has not confirmed for ten minutes is asked about
 * by id. Writes are idempotent, so replicas watching together agree.
 *
 * It also records `job.failed` for jobs that the server closed (terminated, timed out), which no workflow code reports.
 */
export class JobIndexWatcher extends OutboxRelay {
  private readonly starts: Window;
  private readonly closes: Window;
  private backfill: { done: boolean; token?: Buffer } | undefined;
  private purgedAt = 0;

  constructor(
    private readonly deps: WatcherDeps,
    options: { everyMs?: number; lookbackMs?: number } = {},
  ) {
    const everyMs = options.everyMs ?? JOB_INDEX_EVERY_MS;
    super(deps.logger, new RelayWakeups(), { batch: Infinity, busyMs: everyMs, idleMs: everyMs, retryMs: everyMs * 5 }, 'job index');
    const lookbackMs = options.lookbackMs ?? JOB_INDEX_LOOKBACK_MS;
    this.starts = new Window((since) => `StartTime >= '${since}' AND ExecutionStatus = 'Running' AND ${ACCOUNT_JOBS}`, lookbackMs);
    this.closes = new Window((since) => `CloseTime >= '${since}' AND ${ACCOUNT_JOBS}`, lookbackMs);
  }

  async dispatchOnce(): Promise<PassResult> {
    const result: PassResult = { claimed: 0, dispatched: 0, failed: 0 };
    result.claimed += await this.backfillOnce();
    result.claimed += await this.starts.read(this.deps, (runs) => this.take(runs, result));
    result.claimed += await this.closes.read(this.deps, (runs) => this.take(runs, result));
    result.claimed += await this.checkStale(result);
    await this.purgeExpired();
    return result;
  }

  private async take(runs: RunInfo[], result: PassResult): Promise<void> {
    const rows: JobIndexRow[] = [];
    const continued: string[] = [];
    for (const run of runs) {
      if (run.status.name === 'CONTINUED_AS_NEW') {
        continued.push(run.runId);
        continue;
      }
      const row = jobIndexRowOf(this.deps.temporal, run);
      if (row) rows.push(row);
      if (row?.status === 'terminated' || row?.status === 'timed_out') await this.alertServerClose(run, row.status);
    }
    await upsertJobRuns(this.deps.db, rows);
    await dropJobRuns(this.deps.db, continued);
    result.dispatched += rows.length + continued.length;
  }

  private async alertServerClose(run: RunInfo, status: 'terminated' | 'timed_out'): Promise<void> {
    const job = jobSummaryOf(this.deps.temporal, run);
    const callbackUrl = run.memo?.callbackUrl;
    await recordJobClosed(this.deps, {
      accountId: accountOfRun(run) as string,
      job: {
        id: job.id,
        kind: job.kind,
        status,
        run_id: job.run_id,
        created_at: job.created_at,
        closed_at: job.closed_at ?? new Date().toISOString(),
      },
      failures: [FAILURE[status]],
      ...(typeof callbackUrl === 'string' && callbackUrl ? { callbackUrl } : {}),
    });
  }

  /** Once per deployment: the runs visibility held before the index existed, a few pages per pass. */
  private async backfillOnce(): Promise<number> {
    if (!this.backfill) this.backfill = { done: await jobIndexBackfilled(this.deps.db) };
    if (this.backfill.done) return 0;
    let read = 0;
    for (let pages = 0; pages < PAGES_PER_PASS; pages++) {
      const page = await listRuns(this.deps.temporal, `${ACCOUNT_JOBS} AND ExecutionStatus != 'ContinuedAsNew'`, PAGE, this.backfill.token);
      read += page.runs.length;
      const rows = page.runs.map((run) => jobIndexRowOf(this.deps.temporal, run)).filter((row) => row !== null);
      await upsertJobRuns(this.deps.db, rows);
      if (!page.nextPageToken) {
        await markJobIndexBackfilled(this.deps.db);
        this.backfill = { done: true };
        return read;
      }
      this.backfill.token = Buffer.from(page.nextPageToken);
    }
    return read;
  }

  /** Running rows not confirmed for a while, asked about by id: a close or a continuation the windows did not see. */
  private async checkStale(result: PassResult): Promise<number> {
    const stale = await claimUncheckedRuns(this.deps.db, new Date(Date.now() - CHECK_AFTER_MS), CHECKS_PER_PASS);
    const { client } = this.deps.temporal;
    for (const { run_id, job_id } of stale) {
      try {
        const run = await withTemporal(client, () => client.workflow.getHandle(job_id, run_id).describe());
        if (run.status.name === 'CONTINUED_AS_NEW') {
          await dropJobRuns(this.deps.db, [run_id]);
          const latest = await withTemporal(client, () => client.workflow.getHandle(job_id).describe());
          await this.take([latest], result);
        } else {
          await this.take([run], result);
        }
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        await dropJobRuns(this.deps.db, [run_id]); // past the namespace's retention: no job to show
      }
    }
    return stale.length;
  }

  /** Closed rows past the namespace's retention go, as their runs did from Temporal. */
  private async purgeExpired(): Promise<void> {
    if (Date.now() - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = Date.now();
    const { client, namespace } = this.deps.temporal;
    const described = await withTemporal(client, () => client.workflowService.describeNamespace({ namespace }));
    const seconds = Number(described.config?.workflowExecutionRetentionTtl?.seconds ?? 0);
    if (seconds > 0) await purgeJobRunsClosedBefore(this.deps.db, new Date(Date.now() - seconds * 1000));
  }
}
