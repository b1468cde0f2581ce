import { Context } from '@temporalio/activity';
import type { BulkFilter } from '../workflows/jobsBulk.contract';
import type { TemporalDeps } from '../src/deps';
import { createMetrics } from '../src/http/metrics';
import { jobIndexRecorder } from '../src/jobs/jobIndexWrites';
import { batchProgress, replayOne, replayTargets, startBulkCancel } from '../src/jobs/bulkOps';
import type { ActivityDeps } from './deps';

/** The worker's own Temporal client (the activity context's), on the namespace and task queue of the bulk workflow. */
function temporalOf(deps: ActivityDeps): TemporalDeps {
  const ctx = Context.current();
  return {
    client: ctx.client,
    namespace: ctx.info.workflowNamespace ?? ctx.info.activityNamespace,
    taskQueue: ctx.info.taskQueue,
    jobIndex: jobIndexRecorder(deps.db, deps.logger),
  };
}

/** The steps of the `jobs-bulk` workflow (workflows/jobsBulk.ts); the work is src/jobs/bulkOps.ts. */
export function createJobsBulkActivities(deps: ActivityDeps) {
  // Replays count in `workyard_job_starts_total` of the worker's registry.
  const metrics = createMetrics(false);
  return {
    async bulkCancelStart(input: { accountId: string; filter?: BulkFilter; jobIds?: string[]; asOf?: string; batchJobId: string }) {
      return startBulkCancel(temporalOf(deps), input);
    },

    async bulkCancelStatus(input: { batchJobId: string }) {
      return batchProgress(temporalOf(deps), input.batchJobId);
    },

    async bulkReplayTargets(input: { accountId: string; filter?: BulkFilter; jobIds?: string[]; asOf?: string }) {
      return replayTargets(temporalOf(deps), input);
    },

    async bulkReplayOne(input: { accountId: string; jobId: string; key: string; requestId: string }) {
      return replayOne(temporalOf(deps), metrics, input);
    },
  };
}
