import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { startSweepBudget } from './sweepBudget';
import type { SitePlatformEventRetentionInput, SitePlatformEventRetentionResult } from './sitePlatformEventRetention.contract';
import { trackProgress } from './progress';
import { purgeBatchSize, purgeInBatches } from './purgeBatches';

const { purgeSitePlatformInboundEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

/**
 * The `site-platform-event-retention` sweep (daily at 03:25 UTC): deletes inbound events past their retention —
 * unverified rows after 3 days, then verified rows the relay has dispatched after 30 days — batch after batch, until
 * none is left or the budget is spent (`partial: true`; the next run finishes).
 */
export async function sitePlatformEventRetention(input: SitePlatformEventRetentionInput = {}): Promise<SitePlatformEventRetentionResult> {
  const budget = startSweepBudget(input);
  const batch = purgeBatchSize(input.batchSize);
  const progress = trackProgress('deleting unverified');
  const unverified = await purgeInBatches(budget, progress, batch, (limit) =>
    purgeSitePlatformInboundEvents({ kind: 'unverified', limit }),
  );
  if (!unverified.finished) return { partial: true, deleted_unverified: unverified.deleted, deleted_verified: 0 };
  progress.phase('deleting verified');
  const verified = await purgeInBatches(budget, progress, batch, (limit) => purgeSitePlatformInboundEvents({ kind: 'verified', limit }));
  return { partial: !verified.finished, deleted_unverified: unverified.deleted, deleted_verified: verified.deleted };
}
