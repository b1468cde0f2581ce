import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection, startSweepBudget, type SweepInput } from './sweepBudget';
import type { ScopeDriftSummary } from './commerceScopeDrift.contract';
import type { ScopeDriftPageResult } from '../src/commerce/sweeps/scopeDrift';
import { trackProgress } from './progress';

const { checkCommerceScopeDrift } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});

/**
 * The `commerce-scope-drift` sweep (daily, `0 6 * * *`): every account's connected shops, granted scope against the
 * requested scope list; a shop missing scopes gets a deduplicated `commerce_reconnect_suggested` inbox item.
 */
export async function commerceScopeDrift(input: SweepInput = {}): Promise<ScopeDriftSummary> {
  const budget = startSweepBudget(input);
  const progress = trackProgress('checking');
  const summary: ScopeDriftSummary = {
    partial: false,
    checked: 0,
    drifted: 0,
    inbox_items_created: 0,
    failed: 0,
    connections: [],
    connections_truncated: false,
  };
  for (let after: string | null = null; ;) {
    if (budget.spent()) return { ...summary, partial: true };
    const page: ScopeDriftPageResult = await checkCommerceScopeDrift({ after, limit: budget.pageSize });
    summary.checked += page.checked;
    for (const d of page.drifted) {
      summary.drifted++;
      if (d.inboxItemCreated) summary.inbox_items_created++;
      reportConnection(summary.connections, {
        connection_id: d.connectionId,
        account_id: d.accountId,
        shop_domain: d.shopDomain,
        status: 'missing_scopes',
        missing: d.missing,
        inbox_item_created: d.inboxItemCreated,
      });
    }
    for (const f of page.failed) {
      summary.failed++;
      reportConnection(summary.connections, { connection_id: f.connectionId, account_id: f.accountId, status: 'failed', code: f.code });
    }
    summary.connections_truncated = summary.connections.length < summary.drifted + summary.failed;
    progress.advance(page.checked);
    if (!page.next) return summary;
    after = page.next;
  }
}
