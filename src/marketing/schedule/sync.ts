import { WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  cancelUpdate,
  contentPublishContract,
  contentPublishWorkflowId,
  rescheduleUpdate,
  SCHEDULE_IN_PAST,
  SCHEDULE_NOT_WAITING,
  type ContentPublishInput,
} from '../../../workflows/contentPublish.contract';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { invalidField } from '../../http/fieldErrors';
import { indexStartedJob, jobSearchAttributes } from '../../temporal/jobs';
import { withTemporal } from '../../temporal/rpc';
import type { HoldChange } from './hold';
import { publishRetryOf } from './publishRetry';

export type SyncDeps = Pick<AppDeps, 'temporal' | 'metrics' | 'config' | 'logger'>;

export const schedulePublishing = () =>
  new ApiError(409, 'schedule_publishing', 'the scheduled publish of this item is running right now; retry once it has finished');

/**
 * Makes the item's content-publish workflow hold what the write decided, inside the write's transaction and before
 * its commit: the row only ever says `schedule_executes` after the workflow accepted. Temporal unreachable → 503
 * `temporal_unavailable` (the caller's transaction rolls back); a validator refusal → 400 past / 409 publishing.
 */
export async function syncHold(deps: SyncDeps, accountId: string, contentId: string, change: HoldChange): Promise<void> {
  if (change.kind === 'arm') await arm(deps, accountId, contentId, change);
  else if (change.kind === 'release') await release(deps, accountId, contentId);
}

async function arm(deps: SyncDeps, accountId: string, contentId: string, change: Extract<HoldChange, { kind: 'arm' }>) {
  const { client, taskQueue } = deps.temporal;
  const kind = contentPublishContract.jobKind;
  const input: ContentPublishInput = {
    accountId,
    contentId,
    projectId: change.projectId,
    at: change.at.toISOString(),
    deployTarget: change.deployTarget,
    retry: publishRetryOf(deps.config),
  };
  const start = new WithStartWorkflowOperation(contentPublishContract.workflowType, {
    workflowId: contentPublishWorkflowId(accountId, contentId),
    taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A run that ended (published, cancelled, failed) leaves the id free for the item's next schedule.
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    typedSearchAttributes: jobSearchAttributes(kind, accountId, { ContentId: contentId, ProjectId: change.projectId }),
  });
  try {
    await withTemporal(client, () =>
      client.workflow.executeUpdateWithStart(rescheduleUpdate, {
        args: [{ at: input.at, deployTarget: input.deployTarget, projectId: input.projectId }],
        startWorkflowOperation: start,
      }),
    );
  } catch (err) {
    throw refusal(err) ?? err;
  }
  deps.metrics.jobStarts.inc({ kind });
  // The update-with-start answer carries no run id; the run (started now, or the one that holds the item) is described.
  const run = await withTemporal(client, async () => (await start.workflowHandle()).describe());
  await indexStartedJob(deps.temporal, {
    run_id: run.runId,
    job_id: run.workflowId,
    account_id: accountId,
    kind,
    searchAttributes: { ContentId: contentId, ProjectId: change.projectId },
  });
}

async function release(deps: SyncDeps, accountId: string, contentId: string) {
  const { client } = deps.temporal;
  try {
    await withTemporal(client, () => client.workflow.getHandle(contentPublishWorkflowId(accountId, contentId)).executeUpdate(cancelUpdate));
  } catch (err) {
    // No run, or it already ended: nothing holds the date any more, which is what the write wants.
    if (err instanceof WorkflowNotFoundError) return;
    throw refusal(err) ?? err;
  }
}

function refusal(err: unknown): ApiError | undefined {
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure)) return undefined;
  if (err.cause.type === SCHEDULE_IN_PAST) return invalidField('body.scheduled_publish_at', 'must be in the future');
  if (err.cause.type === SCHEDULE_NOT_WAITING) return schedulePublishing();
  return undefined;
}

/** After a delete: best effort (the workflow also finds the row gone at its time), never fails the delete. */
export async function releaseAfterDelete(deps: SyncDeps, accountId: string, contentId: string): Promise<void> {
  try {
    await release(deps, accountId, contentId);
  } catch (err) {
    deps.logger.warn({ err, contentId }, 'cancelling the scheduled publish of a deleted item failed; its workflow ends as gone');
  }
}
