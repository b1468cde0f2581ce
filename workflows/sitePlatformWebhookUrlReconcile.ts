import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection } from './sweepBudget';
import { configuredConnections, endUnconfigured, PAGE_ACTIVITY, ROW_ACTIVITY_RETRY, runSweep } from './sweep';
import type {
  DriftRef,
  SitePlatformUrlReconcileInput,
  SitePlatformUrlReconcileSummary,
  UrlDriftPage,
  UrlReconcileResult,
} from './sitePlatformWebhookUrlReconcile.contract';

const { findSitePlatformWebhookUrlDrift, recordSitePlatformWebhookUrlFailure } = proxyActivities<Activities>(PAGE_ACTIVITY);
const { reconcileSitePlatformWebhookUrl } = proxyActivities<Activities>({
  // Per shared site: a listing, up to 11 creates and the stale deletes, each bounded by the client's timeouts.
  startToCloseTimeout: '5 minutes',
  retry: ROW_ACTIVITY_RETRY,
});

/**
 * The `site-platform-webhook-url-reconcile` sweep (hourly at minute 10, UTC): finds live OAuth connections with a
 * subscription at another URL than their receiver URL now (PUBLIC_APP_URL changed, or SECRET_HASH_KEY rotated the URL
 * token) — a database-only check — and re-registers them there, creating first and deleting the old ones last, one
 * activity per connection. A connection that cannot be moved gets a deduplicated inbox item; the sweep goes on.
 */
export async function sitePlatformWebhookUrlReconcile(input: SitePlatformUrlReconcileInput = {}): Promise<SitePlatformUrlReconcileSummary> {
  type Drifted = DriftRef & { staleUrls: number };
  return runSweep<SitePlatformUrlReconcileSummary, UrlDriftPage, Drifted>(input, {
    phase: 'reconciling',
    fresh: () => ({
      partial: false,
      configured: true,
      drifted: 0,
      reregistered: 0,
      failed: 0,
      skipped: 0,
      inbox_items_created: 0,
      connections: [],
      connections_truncated: false,
    }),
    page: (after, limit) => findSitePlatformWebhookUrlDrift({ after, limit, ...(input.accountId ? { accountId: input.accountId } : {}) }),
    fold: endUnconfigured,
    each: {
      items: configuredConnections,
      async visit(summary, connection) {
        const ref: DriftRef = { accountId: connection.accountId, connectionId: connection.connectionId };
        const result = await reconcileOne(ref);
        summary.drifted++;
        if (result.status === 'reregistered') summary.reregistered++;
        else if (result.status === 'failed') summary.failed++;
        else summary.skipped++;
        if (result.inboxItemCreated) summary.inbox_items_created++;
        reportConnection(summary.connections, {
          connection_id: ref.connectionId,
          account_id: ref.accountId,
          status: result.status,
          stale_urls: connection.staleUrls,
          created: result.created,
          deleted: result.deleted,
          failed_triggers: result.failed.length,
          still_at_old_url: result.stillStale,
          ...(result.code ? { code: result.code } : {}),
        });
        summary.connections_truncated = summary.connections.length < summary.drifted;
      },
    },
    resume: { done: (summary) => summary.drifted },
  });
}

async function reconcileOne(ref: DriftRef): Promise<UrlReconcileResult> {
  try {
    return await reconcileSitePlatformWebhookUrl(ref);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // Retries are spent: the connection is reported (inbox item) and the sweep goes on.
    const code = 'webhook_url_reconcile_failed';
    const { inboxItemCreated } = await recordSitePlatformWebhookUrlFailure({ ...ref, code });
    return { status: 'failed', created: 0, deleted: 0, failed: [], stillStale: 0, code, inboxItemCreated };
  }
}
