import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { EmailBatchInput, EmailBatchResult } from './emailBatchDelivery.contract';
import { startEventDeliveries } from './emailEventDelivery';
import { trackProgress } from './progress';

const { listQueuedEmailBatch, deliverEmailBatchSlice } = proxyActivities<Activities>({
  // One slice: at most the key's per-second share of messages through the relay (its own timeouts: 10 s + 30 s).
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** A slice starts a full second after the previous one finished, so no second ever holds more than `perSecond`. */
const PACE_MS = 1_000;

/**
 * Sends a queued batch (`email-batch:<account>:<batchId>`) at the key's rate: `perSecond` messages at a time,
 * a second apart. Each slice records its messages' outcomes and events, whose delivery workflows start here. Once
 * the key is revoked, the rest of the batch fails at once (`api_key_revoked`) and is refunded to the daily cap.
 */
export async function emailBatchDelivery(input: EmailBatchInput): Promise<EmailBatchResult> {
  const progress = trackProgress('listing');
  const ids = await listQueuedEmailBatch({ accountId: input.accountId, batchId: input.batchId });
  progress.phase('sending', ids.length);
  const result: EmailBatchResult = { batch_id: input.batchId, total: ids.length, sent: 0, failed: 0 };
  const dispatching: Array<Promise<unknown>> = [];
  let next = 0;
  let keyRevoked = false;
  while (next < ids.length) {
    const slice = ids.slice(next, keyRevoked ? ids.length : next + input.perSecond);
    const outcome = await deliverEmailBatchSlice({
      accountId: input.accountId,
      keyId: input.keyId,
      batchId: input.batchId,
      ids: slice,
      quotaDay: input.quotaDay,
    });
    next += slice.length;
    result.sent += outcome.sent;
    result.failed += outcome.failed;
    progress.advance(slice.length);
    // The events' delivery workflows start while the batch waits for its next second.
    if (outcome.eventIds.length > 0)
      dispatching.push(startEventDeliveries(outcome.eventIds.map((eventId) => ({ accountId: input.accountId, eventId }))));
    keyRevoked = outcome.keyRevoked;
    if (next < ids.length && !keyRevoked) await sleep(PACE_MS);
  }
  await Promise.all(dispatching);
  return result;
}
