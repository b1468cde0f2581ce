import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection, startSweepBudget, type SweepInput } from './sweepBudget';
import type { WebhookHealthSummary } from './commerceWebhookHealth.contract';
import type { HealthPageResult } from '../src/commerce/sweeps/webhookHealth';
import { trackProgress } from './progress';

const { checkCommerceWebhookHealth } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * The `commerce-webhook-health` sweep (hourly, `0 * * * *`): pages through every account's connected shops and
 * flags the silent ones — installed over 72 hours, no delivery on any active subscription for 72 hours, or no
 * active subscription — with a deduplicated inbox item. Detection only.
 */
export async function commerceWebhookHealth(input: SweepInput = {}): Promise<WebhookHealthSummary> {
  const budget = startSweepBudget(input);
  const progress = trackProgress('checking');
  const summary: WebhookHealthSummary = {
    partial: false,
    checked: 0,
    silent: 0,
    inbox_items_created: 0,
    failed: 0,
    connections: [],
    connections_truncated: false,
  };
  for (let after: string | null = null; ;) {
    if (budget.spent()) return { ...summary, partial: true };
    const page: HealthPageResult = await checkCommerceWebhookHealth({ after, limit: budget.pageSize });
    summary.checked += page.checked;
    for (const s of page.silent) {
      summary.silent++;
      if (s.inboxItemCreated) summary.inbox_items_created++;
      reportConnection(summary.connections, {
        connection_id: s.connectionId,
        account_id: s.accountId,
        shop_domain: s.shopDomain,
        status: 'silent',
        inbox_item_created: s.inboxItemCreated,
      });
    }
    for (const f of page.failed) {
      summary.failed++;
      reportConnection(summary.connections, { connection_id: f.connectionId, account_id: f.accountId, status: 'failed', code: f.code });
    }
    summary.connections_truncated = summary.connections.length < summary.silent + summary.failed;
    progress.advance(page.checked);
    if (!page.next) return summary;
    after = page.next;
  }
}
