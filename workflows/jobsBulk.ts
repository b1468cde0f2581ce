import { ApplicationFailure, proxyActivities, setHandler, sleep, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { bulkCountsQuery, MAX_BULK_REPLAY, type BulkCounts, type JobsBulkInput } from './jobsBulk.contract';
import { inPool } from './pool';
import { trackProgress } from './progress';

const retry = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 };

const { bulkCancelStatus, bulkReplayTargets } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry });
// A server caps the batch operations running at once per namespace (frontend.MaxConcurrentBatchOperationPerNamespace):
// a start refused for that waits for the others, for a while, instead of failing the bulk operation.
const { bulkCancelStart } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '15 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});
const { bulkReplayOne } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { ...retry, maximumAttempts: 3 } });

/** Replays run side by side, a few at a time: each is a history read and a start. */
const REPLAY_CONCURRENCY = 5;
const MAX_POLL_MS = 10_000;

/**
 * One bulk action on an account's jobs. Cancel hands the work to a Temporal batch operation (by the account-scoped
 * visibility query, or by the listed ids the account owns) and follows its counts; replay lists the targets (at most
 * MAX_BULK_REPLAY) and replays each. `bulkCounts` answers the counts so far; the result is the final counts.
 */
export async function jobsBulk(input: JobsBulkInput): Promise<BulkCounts> {
  const counts: BulkCounts = { total: 0, succeeded: 0, failed: 0 };
  setHandler(bulkCountsQuery, () => ({ ...counts }));
  const progress = trackProgress(input.action === 'cancel' ? 'canceling' : 'replaying');
  const show = () => {
    progress.current.total = counts.total;
    progress.current.done = counts.succeeded + counts.failed;
  };

  if (input.action === 'cancel') {
    const batchJobId = uuid4();
    const started = await bulkCancelStart({
      accountId: input.accountId,
      filter: input.filter,
      jobIds: input.jobIds,
      asOf: input.asOf,
      batchJobId,
    });
    Object.assign(counts, { total: started.refused, failed: started.refused });
    show();
    for (let waitMs = 500; started.started; waitMs = Math.min(waitMs * 2, MAX_POLL_MS)) {
      const batch = await bulkCancelStatus({ batchJobId });
      Object.assign(counts, {
        total: started.refused + batch.total,
        succeeded: batch.succeeded,
        failed: started.refused + batch.failed,
      });
      show();
      if (batch.state === 'failed') {
        throw ApplicationFailure.create({ type: 'bulk_operation_failed', message: 'the batch cancel failed', nonRetryable: true });
      }
      if (batch.state === 'completed') break;
      await sleep(waitMs);
    }
    return counts;
  }

  const targets = await bulkReplayTargets({ accountId: input.accountId, filter: input.filter, jobIds: input.jobIds, asOf: input.asOf });
  const ids = targets.ids.slice(0, MAX_BULK_REPLAY);
  counts.total = ids.length;
  show();
  const prefix = uuid4();
  await inPool(
    ids.map((id, index) => ({ id, index })),
    REPLAY_CONCURRENCY,
    async ({ id, index }) => {
      try {
        const outcome = await bulkReplayOne({
          accountId: input.accountId,
          jobId: id,
          key: `${prefix}.${index}`,
          requestId: input.requestId,
        });
        if (outcome.replayed) counts.succeeded++;
        else counts.failed++;
      } catch {
        counts.failed++; // its retries ran out: this one failed, the others go on
      }
      show();
    },
  );
  return counts;
}
