import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { startSweepBudget } from './sweepBudget';
import type { DeliveryPurgeInput, DeliveryPurgeResult } from './commerceDeliveryPurge.contract';
import { trackProgress } from './progress';

const { purgeCommerceWebhookDeliveries } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

const DEFAULT_BATCH = 5_000;
const MAX_BATCH = 50_000;

/**
 * The `commerce-delivery-purge` sweep (daily, `15 3 * * *`): deletes webhook delivery records older than 7 days,
 * batch after batch, until none is left or the budget is spent (`partial: true`; the next day finishes).
 */
export async function commerceDeliveryPurge(input: DeliveryPurgeInput = {}): Promise<DeliveryPurgeResult> {
  const budget = startSweepBudget(input);
  const batch =
    typeof input.batchSize === 'number' && input.batchSize >= 1 ? Math.min(Math.floor(input.batchSize), MAX_BATCH) : DEFAULT_BATCH;
  const progress = trackProgress('deleting');
  let deleted = 0;
  for (;;) {
    if (budget.spent()) return { partial: true, deleted };
    const n = await purgeCommerceWebhookDeliveries({ limit: batch });
    deleted += n;
    progress.advance(n);
    if (n < batch) return { partial: false, deleted };
  }
}
