import type { AppDeps } from '../deps';
import { recordJobClosed } from '../alerts/service';
import { OutboxRelay, RelayWakeups, type PassResult } from '../temporal/outboxRelay';
import { accountOfRun, jobSummaryOf } from '../temporal/jobView';
import { SYSTEM_ACCOUNT } from '../temporal/searchAttributes';
import { listRuns } from './visibility';

/** How often the watcher looks for jobs the server closed. */
export const SERVER_CLOSES_EVERY_MS = 15_000;
/** How far back the first pass of a process looks (a restart misses nothing closed within it). */
export const SERVER_CLOSES_LOOKBACK_MS = 60 * 60_000;
/** Runs per visibility page, and pages one pass reads at most (the rest wait for the next pass). */
const PAGE = 200;
const MAX_PAGES = 5;

const FAILURE: Record<'terminated' | 'timed_out', { type: string; message: string }> = {
  terminated: { type: 'job_terminated', message: 'the job was terminated' },
  timed_out: { type: 'job_timed_out', message: 'the job ran past its time limit' },
};

/**
 * `job.failed` for jobs that the Temporal server closed: a termination (an operator in the Temporal UI) or a timeout.
 * No workflow code runs at those closes, so the job-events interceptor cannot report them; this watcher, run by the API
 * process, reads them from visibility. Recording is idempotent (one event per run id), so replicas watching together
 * and overlapping passes never alert twice. Visibility is eventually consistent: each pass re-reads a minute before the
 * newest close it saw.
 */
export class ServerClosedJobsWatcher extends OutboxRelay {
  private since: Date;

  constructor(
    private readonly deps: Pick<AppDeps, 'db' | 'temporal' | 'logger' | 'secretHashKey'>,
    options: { everyMs?: number; lookbackMs?: number } = {},
  ) {
    const everyMs = options.everyMs ?? SERVER_CLOSES_EVERY_MS;
    // `batch` above anything a pass claims: every pass is followed by the pause (a pass re-reads its last minute).
    super(deps.logger, new RelayWakeups(), { batch: Infinity, busyMs: everyMs, idleMs: everyMs, retryMs: everyMs }, 'server-closed jobs');
    this.since = new Date(Date.now() - (options.lookbackMs ?? SERVER_CLOSES_LOOKBACK_MS));
  }

  async dispatchOnce(): Promise<PassResult> {
    const query =
      `(ExecutionStatus = 'Terminated' OR ExecutionStatus = 'TimedOut') AND CloseTime >= '${this.since.toISOString()}' ` +
      `AND AccountId != '${SYSTEM_ACCOUNT}'`;
    const result: PassResult = { claimed: 0, dispatched: 0, failed: 0 };
    let newest = this.since;
    let token: Buffer | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await listRuns(this.deps.temporal, query, PAGE, token);
      result.claimed += page.runs.length;
      for (const run of page.runs) {
        const job = jobSummaryOf(this.deps.temporal, run);
        const accountId = accountOfRun(run);
        if ((job.status !== 'terminated' && job.status !== 'timed_out') || !accountId) continue;
        if (run.closeTime && run.closeTime > newest) newest = run.closeTime;
        const callbackUrl = run.memo?.callbackUrl;
        await recordJobClosed(this.deps, {
          accountId,
          job: {
            id: job.id,
            kind: job.kind,
            status: job.status,
            run_id: job.run_id,
            created_at: job.created_at,
            closed_at: job.closed_at ?? new Date().toISOString(),
          },
          failures: [FAILURE[job.status]],
          ...(typeof callbackUrl === 'string' && callbackUrl ? { callbackUrl } : {}),
        });
        result.dispatched++;
      }
      if (!page.nextPageToken) break;
      token = Buffer.from(page.nextPageToken);
    }
    this.since = new Date(Math.max(this.since.getTime(), newest.getTime() - 60_000));
    return result;
  }
}
