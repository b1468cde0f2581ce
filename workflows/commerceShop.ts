import { ActivityFailure, condition, log, makeContinueAsNewFunc, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { deliverySignal, type CommerceDelivery, type CommerceShopInput } from './commerceMessages';
import { startPrivacyFulfilmentOf } from './commercePrivacyRequest';
import { trackProgress } from './progress';

const { processCommerceDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // Handlers answer payload problems as outcomes; what throws is infrastructure (the database), worth retrying.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 8 },
});
const { recordCommerceDeliveryFailure } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 20 },
});

export const DEFAULT_DELIVERIES_PER_RUN = 500;
/** A shop silent this long closes its run; its next delivery's signal-with-start opens a new one. */
const IDLE_CLOSE = '10 minutes';
/** Pending deliveries ride in the continue-as-new input; above this they are worked down first (payload limits). */
const MAX_CARRIED_BYTES = 512 * 1024;

/**
 * The entity workflow of one connected shop (`commerce-shop:<connectionId>`): the webhook receiver signals each
 * verified delivery (signal-with-start) and this run processes them one at a time, in arrival order, through
 * activities — ingestion, topic handlers. History stays short: after `maxDeliveriesPerRun` deliveries, or when
 * Temporal suggests it, the run continues as new and carries the deliveries not yet processed.
 */
export async function commerceShopWorkflow(input: CommerceShopInput): Promise<{ processed: number }> {
  const pending: CommerceDelivery[] = [...(input.pending ?? [])];
  setHandler(deliverySignal, (delivery) => { pending.push(delivery); });
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
      await processOne(input, pending.shift()!);
      progress.advance();
      processedThisRun++;
      const carried = pending.reduce((sum, d) => sum + d.bytes, 0);
      if ((processedThisRun >= perRun || workflowInfo().continueAsNewSuggested) && carried <= MAX_CARRIED_BYTES) {
        const next = makeContinueAsNewFunc<typeof commerceShopWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
        return next({ ...input, pending: [...pending], processed: progress.current.done });
      }
    }
    progress.current.phase = 'idle';
  }
}

async function processOne(input: CommerceShopInput, delivery: CommerceDelivery): Promise<void> {
  const { payload, bytes: _bytes, ...about } = delivery;
  const context = { accountId: input.accountId, connectionId: input.connectionId, ...about };
  try {
    const handled = await processCommerceDelivery({ ...context, payload });
    await startPrivacyFulfilmentOf(input, handled.detail);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // Retries are spent: the delivery is recorded as failed and the shop's stream moves on.
    log.warn('commerce delivery failed after retries', { connectionId: input.connectionId, topic: delivery.topic, webhookId: delivery.webhookId });
    try {
      await recordCommerceDeliveryFailure({ ...context, code: 'handler_error' });
    } catch (recordErr) {
      if (!(recordErr instanceof ActivityFailure)) throw recordErr;
      log.error('commerce delivery failure could not be recorded', { connectionId: input.connectionId, webhookId: delivery.webhookId });
    }
  }
}
