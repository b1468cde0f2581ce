import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { startSweepBudget } from './sweepBudget';
import type { SitePlatformEventRetentionInput, SitePlatformEventRetentionResult } from './sitePlatformEventRetention.contract';
import { trackProgress } from './progress';

const { purgeSitePlatformInboundEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5 },
});

const DEFAULT_BATCH = 5_000;
const MAX_BATCH = 50_000;

/**
 * The `site-platform-event-retention` sweep (daily at 03:25 UTC): deletes inbound events past their retention —
 * unverified rows after 3 days, then verified rows the relay has dispatched after 30 days — batch after batch, until
 * none is left or the budget is spent (`partial: true`; the next run finishes).
 */
export async function sitePlatformEventRetention(input: SitePlatformEventRetentionInput = {}): Promise<SitePlatformEventRetentionResult> {
  const budget = startSweepBudget(input);
  const batch =
    typeof input.batchSize === 'number' && input.batchSize >= 1 ? Math.min(Math.floor(input.batchSize), MAX_BATCH) : DEFAULT_BATCH;
  const progress = trackProgress('deleting unverified');
  const result: SitePlatformEventRetentionResult = { partial: false, deleted_unverified: 0, deleted_verified: 0 };
  for (const kind of ['unverified', 'verified'] as const) {
    if (kind === 'verified') progress.phase('deleting verified');
    for (;;) {
      if (budget.spent()) return { ...result, partial: true };
      const n = await purgeSitePlatformInboundEvents({ kind, limit: batch });
      if (kind === 'verified') result.deleted_verified += n;
      else result.deleted_unverified += n;
      progress.advance(n);
      if (n < batch) break;
    }
  }
  return result;
}
