import { ActivityFailure, makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection, startSweepBudget } from './sweepBudget';
import type { UrlReconcileInput, UrlReconcileSummary } from './commerceWebhookUrlReconcile.contract';
import type { ConnectionRef, UrlReconcileResult } from '../src/commerce/sweeps/urlReconcile';
import { trackProgress } from './progress';

const { findCommerceWebhookUrlDrift, recordCommerceWebhookUrlFailure } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});
const { reconcileCommerceWebhookUrl } = proxyActivities<Activities>({
  // Up to 14 platform calls, each bounded by the client's own timeouts and 429 waits.
  startToCloseTimeout: '3 minutes',
  // Coded platform failures come back as results (inbox item raised); what throws is the database, worth a retry.
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
});

/**
 * The `commerce-webhook-url-reconcile` sweep (daily, `0 5 * * *`): finds connected shops with a webhook
 * subscription at another URL than `<PUBLIC_APP_URL>/api/webhooks/commerce` and re-registers all their standard
 * topics there, one activity per shop. A shop that cannot be moved gets a deduplicated inbox item and the sweep
 * goes on with the next.
 */
export async function commerceWebhookUrlReconcile(input: UrlReconcileInput = {}): Promise<UrlReconcileSummary> {
  const budget = startSweepBudget(input);
  const progress = trackProgress('reconciling');
  const summary: UrlReconcileSummary = input.summary ?? {
    partial: false,
    configured: true,
    endpoint_url: null,
    drifted: 0,
    reregistered: 0,
    failed: 0,
    skipped: 0,
    connections: [],
    connections_truncated: false,
  };
  progress.advance(summary.drifted);
  for (let after = input.after ?? null; ;) {
    if (budget.spent()) return { ...summary, partial: true };
    const page = await findCommerceWebhookUrlDrift({ after, limit: budget.pageSize });
    if (!page.configured) return { ...summary, configured: false, code: page.code };
    summary.endpoint_url = page.endpointUrl;
    for (const connection of page.connections) {
      if (budget.spent()) return { ...summary, partial: true };
      const result = await reconcileOne(connection);
      summary.drifted++;
      if (result.status === 'reregistered') summary.reregistered++;
      else if (result.status === 'failed') summary.failed++;
      else summary.skipped++;
      reportConnection(summary.connections, {
        connection_id: connection.connectionId,
        account_id: connection.accountId,
        shop_domain: connection.shopDomain,
        status: result.status,
        registered: result.registered,
        failed_topics: result.failed.length,
        ...(result.code ? { code: result.code } : {}),
      });
      summary.connections_truncated = summary.connections.length < summary.drifted;
      progress.advance();
    }
    if (!page.next) return summary;
    after = page.next;
    if (workflowInfo().continueAsNewSuggested) {
      const next = makeContinueAsNewFunc<typeof commerceWebhookUrlReconcile>({
        typedSearchAttributes: workflowInfo().typedSearchAttributes,
      });
      return next({ ...input, deadline: budget.deadline, after, summary });
    }
  }
}

async function reconcileOne(connection: ConnectionRef): Promise<UrlReconcileResult> {
  const ref: ConnectionRef = { accountId: connection.accountId, connectionId: connection.connectionId, shopDomain: connection.shopDomain };
  try {
    return await reconcileCommerceWebhookUrl(ref);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // Retries are spent: the shop is reported (inbox item) and the sweep goes on.
    await recordCommerceWebhookUrlFailure({ ...ref, code: 'webhook_url_reconcile_failed' });
    return { status: 'failed', registered: 0, failed: [], code: 'webhook_url_reconcile_failed' };
  }
}
