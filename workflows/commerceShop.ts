import { ActivityFailure, condition, log, makeContinueAsNewFunc, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { DeliverySummary } from '../activities/commerce';
import { deliveriesSignal, type CommerceShopInput, type CommerceShopResult } from './commerceShop.contract';
import { startPrivacyFulfilmentOf } from './commercePrivacyRequest';
import { trackProgress } from './progress';

const { processCommerceDeliveries } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  // A batch that keeps failing is worked one delivery at a time (below), so one bad delivery never blocks the others.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 3 },
});
const { processCommerceDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // Handlers answer payload problems as outcomes; what throws is infrastructure (the database), worth retrying.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 8 },
});
const { recordCommerceDeliveryFailure } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 20 },
});

export const DEFAULT_DELIVERIES_PER_RUN = 2000;
/** Deliveries one activity call processes, in arrival order. */
export const DELIVERIES_PER_ACTIVITY = 50;
/** A shop silent this long closes its run; its next delivery's signal-with-start opens a new one. */
const IDLE_CLOSE = '10 minutes';
/** Webhook ids carried across continue-as-new stay under this (ids only: payloads live in the table). */
const MAX_CARRIED_BYTES = 256 * 1024;
/** Processed ids remembered, so a re-sent signal (relay commit lost after the signal) is ignored. */
const RECENT_IDS = 1000;

/**
 * The entity workflow of one connected shop (`commerce-shop:<connectionId>`): the relay signals batches of
 * recorded deliveries by webhook id (signal-with-start), and this run processes them in arrival order, up to
 * DELIVERIES_PER_ACTIVITY per activity call. Ids already pending or processed lately are ignored (and the
 * activity skips any delivery already processed). History stays short: after `maxDeliveriesPerRun` deliveries,
 * or when Temporal suggests it, the run continues as new and carries the ids not yet processed.
 */
export async function commerceShopWorkflow(input: CommerceShopInput): Promise<CommerceShopResult> {
  const pending: string[] = [...(input.pending ?? [])];
  const queued = new Set(pending);
  const recent: string[] = [...(input.recent ?? [])];
  const recentSet = new Set(recent);
  setHandler(deliveriesSignal, ({ webhookIds }) => {
    for (const id of webhookIds) {
      if (queued.has(id) || recentSet.has(id)) continue;
      queued.add(id);
      pending.push(id);
    }
  });
  const remember = (ids: string[]) => {
    for (const id of ids) {
      queued.delete(id);
      recent.push(id);
      recentSet.add(id);
    }
    while (recent.length > RECENT_IDS) recentSet.delete(recent.shift()!);
  };
  const progress = trackProgress('idle');
  progress.advance(input.processed ?? 0);
  const perRun = input.maxDeliveriesPerRun ?? DEFAULT_DELIVERIES_PER_RUN;
  let processedThisRun = 0;

  for (;;) {
    const woken = await condition(() => pending.length > 0, IDLE_CLOSE);
    // A signal delivered in the same activation as the idle timer is already in `pending`: never close on it.
    if (!woken && pending.length === 0) return { processed: progress.current.done };
    progress.current.phase = 'processing';
    while (pending.length > 0) {
      const batch = pending.splice(0, Math.min(DELIVERIES_PER_ACTIVITY, Math.max(1, perRun - processedThisRun)));
      await processBatch(input, batch);
      remember(batch);
      progress.advance(batch.length);
      processedThisRun += batch.length;
      const carried = pending.reduce((sum, id) => sum + id.length + 3, 0);
      if ((processedThisRun >= perRun || workflowInfo().continueAsNewSuggested) && carried <= MAX_CARRIED_BYTES) {
        const next = makeContinueAsNewFunc<typeof commerceShopWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
        return next({ ...input, pending: [...pending], recent: recent.slice(-RECENT_IDS), processed: progress.current.done });
      }
    }
    progress.current.phase = 'idle';
  }
}

async function processBatch(input: CommerceShopInput, webhookIds: string[]): Promise<void> {
  const ref = { accountId: input.accountId, connectionId: input.connectionId };
  let handled: DeliverySummary[];
  try {
    handled = await processCommerceDeliveries({ ...ref, webhookIds });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // The batch keeps failing: one delivery at a time, so the failing one is found and recorded, the rest go on.
    for (const webhookId of webhookIds) await processOne(input, webhookId);
    return;
  }
  for (const summary of handled) await startPrivacyFulfilmentOf(input, summary.detail);
}

async function processOne(input: CommerceShopInput, webhookId: string): Promise<void> {
  const ref = { accountId: input.accountId, connectionId: input.connectionId, webhookId };
  try {
    const [handled] = await processCommerceDelivery(ref);
    await startPrivacyFulfilmentOf(input, handled?.detail);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // Retries are spent: the delivery is recorded as failed and the shop's stream moves on.
    log.warn('commerce delivery failed after retries', { connectionId: input.connectionId, webhookId });
    try {
      await recordCommerceDeliveryFailure({ ...ref, code: 'handler_error' });
    } catch (recordErr) {
      if (!(recordErr instanceof ActivityFailure)) throw recordErr;
      log.error('commerce delivery failure could not be recorded', { connectionId: input.connectionId, webhookId });
    }
  }
}
