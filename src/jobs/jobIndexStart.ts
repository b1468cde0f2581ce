import type { TemporalDeps } from '../deps';
import { isUuid } from '../http/ids';
import type { JobSearchAttributes, JobStartOptions } from '../temporal/jobs';
import { upsertJobRuns } from './jobIndexStore';

export interface StartedRun {
  run_id: string;
  job_id: string;
  account_id: string;
  kind: string;
  searchAttributes?: JobSearchAttributes;
  options?: JobStartOptions;
  replayOf?: unknown;
}

/**
 * Records a run the API just started (or attached to) in the job index. The job runs whatever happens here: a failed
 * write is logged and the index watcher takes the run from visibility a few seconds later.
 */
export async function indexStartedJob(temporal: TemporalDeps, run: StartedRun): Promise<void> {
  if (!temporal.jobIndex || !isUuid(run.account_id)) return;
  try {
    await upsertJobRuns(temporal.jobIndex.db, [
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
    temporal.jobIndex.logger.warn(
      { job_id: run.job_id, error: (err as Error).message },
      'the job index did not take a started job; the index watcher will',
    );
  }
}
