import type { Knex } from '../db/knex';
import { isUuid } from '../http/ids';
import type { Logger } from '../logger';
import type { StartedRun } from '../temporal/jobs';
import { upsertJobRuns } from './jobIndexStore';
import type { JobClosedInput } from '../../workflows/alertEventDelivery.contract';

/**
 * What records runs the API starts (or attaches to) in the job index (TemporalDeps.jobIndex). The job runs whatever
 * happens here: a failed write is logged and the index watcher takes the run from visibility a few seconds later.
 */
export function jobIndexRecorder(db: Knex, logger: Logger): (run: StartedRun) => Promise<void> {
  return (run) => recordStart(db, logger, run);
}

async function recordStart(db: Knex, logger: Logger, run: StartedRun): Promise<void> {
  if (!isUuid(run.account_id)) return;
  try {
    await upsertJobRuns(db, [
      {
        run_id: run.run_id,
        job_id: run.job_id,
        account_id: run.account_id,
        kind: run.kind,
        status: 'running',
        content_id: run.searchAttributes?.ContentId ?? null,
        connection_id: run.searchAttributes?.ConnectionId ?? null,
        project_id: run.searchAttributes?.ProjectId ?? null,
        tags: run.options?.tags ?? [],
        metadata: run.options?.metadata ?? {},
        replay_of: typeof run.replayOf === 'string' ? run.replayOf : null,
        created_at: new Date(),
        closed_at: null,
      },
    ]);
  } catch (err) {
    logger.warn({ job_id: run.job_id, error: (err as Error).message }, 'the job index did not take a started job; the index watcher will');
  }
}

/**
 * A run's close as the job itself reported it (the job events interceptor's activity). A run whose start the index
 * does not hold yet (it closed before the API recorded it, or nothing recorded its start) is inserted closed; the
 * start record or the watcher fills in what it was started with.
 */
export async function recordJobRunClosed(db: Knex, input: JobClosedInput): Promise<void> {
  if (!isUuid(input.accountId)) return;
  const closedAt = new Date(input.job.closed_at);
  await upsertJobRuns(db, [
    {
      run_id: input.job.run_id,
      job_id: input.job.id,
      account_id: input.accountId,
      kind: input.job.kind,
      status: input.job.status,
      content_id: null,
      connection_id: null,
      project_id: null,
      tags: [],
      metadata: {},
      replay_of: null,
      created_at: input.job.created_at ? new Date(input.job.created_at) : closedAt,
      closed_at: closedAt,
    },
  ]);
}
