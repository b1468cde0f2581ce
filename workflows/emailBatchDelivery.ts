import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, sleep, startChild } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { EmailBatchInput, EmailBatchResult } from './emailBatchDelivery.contract';
import { emailDelivery } from './emailDelivery';
import { emailDeliveryContract, type DeliveryRetry } from './emailDelivery.contract';
import { startEventDeliveries } from './emailEventDelivery';
import { trackProgress } from './progress';
import { AccountIdKey, JobKindKey } from './searchAttributes';

const { listQueuedEmailBatch, attemptEmailDeliveries } = proxyActivities<Activities>({
  // One slice: at most the key's per-second share of messages, a transaction per recipient (each within 60 s).
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** A slice starts a full second after the previous one finished, so no second ever holds more than `perSecond`. */
const PACE_MS = 1_000;

/**
 * Sends a queued batch (`email-batch:<account>:<batchId>`) at the key's rate: `perSecond` messages at a time, a
 * second apart, each slice one delivery attempt. A message the relay defers goes on with its own delivery job
 * (`email-delivery:<account>:<emailId>`), which retries it; the batch does not wait for it. Once the key is
 * revoked, the rest of the batch fails at once (`api_key_revoked`) and is refunded to the daily cap.
 */
export async function emailBatchDelivery(input: EmailBatchInput): Promise<EmailBatchResult> {
  const progress = trackProgress('listing');
  const ids = await listQueuedEmailBatch({ accountId: input.accountId, batchId: input.batchId });
  progress.phase('sending', ids.length);
  const result: EmailBatchResult = { batch_id: input.batchId, total: ids.length, sent: 0, failed: 0, deferred: 0 };
  const dispatching: Array<Promise<unknown>> = [];
  let next = 0;
  let keyRevoked = false;
  while (next < ids.length) {
    const slice = ids.slice(next, keyRevoked ? ids.length : next + input.perSecond);
    const outcome = await attemptEmailDeliveries({ accountId: input.accountId, emailIds: slice, attempt: 1, final: false });
    next += slice.length;
    result.sent += outcome.sent;
    result.failed += outcome.failed;
    progress.advance(slice.length);
    const deferred = outcome.results.filter((r) => r.state === 'deferred').map((r) => r.emailId);
    result.deferred += deferred.length;
    if (deferred.length > 0) dispatching.push(startRetries(input.accountId, deferred, input.retry));
    // The events' delivery workflows start while the batch waits for its next second.
    if (outcome.eventIds.length > 0)
      dispatching.push(startEventDeliveries(outcome.eventIds.map((eventId) => ({ accountId: input.accountId, eventId }))));
    keyRevoked = outcome.keyRevoked;
    if (next < ids.length && !keyRevoked) await sleep(PACE_MS);
  }
  await Promise.all(dispatching);
  return result;
}

/** Each deferred message's own delivery job, abandoned by the batch (it outlives it), after one attempt made here. */
async function startRetries(accountId: string, emailIds: string[], retry: DeliveryRetry): Promise<void> {
  await Promise.all(
    emailIds.map(async (emailId) => {
      try {
        await startChild(emailDelivery, {
          workflowId: `${emailDeliveryContract.jobKind}:${accountId}:${emailId}`,
          args: [{ accountId, emailId, retry, attemptsMade: 1 }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          typedSearchAttributes: [
            { key: AccountIdKey, value: accountId },
            { key: JobKindKey, value: emailDeliveryContract.jobKind },
          ],
        });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }),
  );
}
