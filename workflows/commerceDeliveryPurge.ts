import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { startSweepBudget } from './sweepBudget';
import type { DeliveryPurgeInput, DeliveryPurgeResult } from './commerceDeliveryPurge.contract';
import { trackProgress } from './progress';
import { purgeBatchSize, purgeInBatches } from './purgeBatches';

const { purgeCommerceWebhookDeliveries } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

/**
 * The `commerce-delivery-purge` sweep (daily, `15 3 * * *`): deletes webhook delivery records older than 7 days,
 * batch after batch, until none is left or the budget is spent (`partial: true`; the next day finishes).
 */
export async function commerceDeliveryPurge(input: DeliveryPurgeInput = {}): Promise<DeliveryPurgeResult> {
  const budget = startSweepBudget(input);
  const progress = trackProgress('deleting');
  const { deleted, finished } = await purgeInBatches(budget, progress, purgeBatchSize(input.batchSize), (limit) =>
    purgeCommerceWebhookDeliveries({ limit }),
  );
  return { partial: !finished, deleted };
}
