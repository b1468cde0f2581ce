import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection } from './sweepBudget';
import { configuredConnections, endUnconfigured, PAGE_ACTIVITY, ROW_ACTIVITY_RETRY, runSweep } from './sweep';
import type { UrlDriftPage, UrlReconcileInput, UrlReconcileResult, UrlReconcileSummary } from './commerceWebhookUrlReconcile.contract';
import type { ShopRef } from './commerceShopRef.contract';

const { findCommerceWebhookUrlDrift, recordCommerceWebhookUrlFailure } = proxyActivities<Activities>(PAGE_ACTIVITY);
const { reconcileCommerceWebhookUrl } = proxyActivities<Activities>({
  // Up to 14 platform calls, each bounded by the client's own timeouts and 429 waits.
  startToCloseTimeout: '3 minutes',
  retry: ROW_ACTIVITY_RETRY,
});

/**
 * The `commerce-webhook-url-reconcile` sweep (daily, `0 5 * * *`): finds connected shops with a webhook
 * subscription at another URL than `<PUBLIC_APP_URL>/api/webhooks/commerce` and re-registers all their standard
 * topics there, one activity per shop. A shop that cannot be moved gets a deduplicated inbox item and the sweep
 * goes on with the next.
 */
export async function commerceWebhookUrlReconcile(input: UrlReconcileInput = {}): Promise<UrlReconcileSummary> {
  return runSweep<UrlReconcileSummary, UrlDriftPage, ShopRef>(input, {
    phase: 'reconciling',
    fresh: () => ({
      partial: false,
      configured: true,
      endpoint_url: null,
      drifted: 0,
      reregistered: 0,
      failed: 0,
      skipped: 0,
      connections: [],
      connections_truncated: false,
    }),
    page: (after, limit) => findCommerceWebhookUrlDrift({ after, limit }),
    fold(summary, page) {
      if (page.configured) summary.endpoint_url = page.endpointUrl;
      return endUnconfigured(summary, page);
    },
    each: {
      items: configuredConnections,
      async visit(summary, connection) {
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
      },
    },
    resume: { done: (summary) => summary.drifted },
  });
}

async function reconcileOne(connection: ShopRef): Promise<UrlReconcileResult> {
  const ref: ShopRef = { accountId: connection.accountId, connectionId: connection.connectionId, shopDomain: connection.shopDomain };
  try {
    return await reconcileCommerceWebhookUrl(ref);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // Retries are spent: the shop is reported (inbox item) and the sweep goes on.
    await recordCommerceWebhookUrlFailure({ ...ref, code: 'webhook_url_reconcile_failed' });
    return { status: 'failed', registered: 0, failed: [], code: 'webhook_url_reconcile_failed' };
  }
}
