import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SweepInput } from './sweepBudget';
import { PAGE_ACTIVITY, runSweep } from './sweep';
import { connectionCheckSweep } from './connectionCheckSweep';
import type { WebhookHealthSummary } from './commerceWebhookHealth.contract';

const { checkCommerceWebhookHealth } = proxyActivities<Activities>(PAGE_ACTIVITY);

/**
 * The `commerce-webhook-health` sweep (hourly, `0 * * * *`): pages through every account's connected shops and
 * flags the silent ones — installed over 72 hours, no delivery on any active subscription for 72 hours, or no
 * active subscription — with a deduplicated inbox item. Detection only.
 */
export async function commerceWebhookHealth(input: SweepInput = {}): Promise<WebhookHealthSummary> {
  return runSweep(
    input,
    connectionCheckSweep({
      key: 'silent',
      status: 'silent',
      page: (after, limit) => checkCommerceWebhookHealth({ after, limit }),
      extra: () => ({}),
    }),
  );
}
