import { ActivityFailure, makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection, startSweepBudget } from './sweepBudget';
import type { SitePlatformUrlReconcileInput, SitePlatformUrlReconcileSummary } from './sitePlatformWebhookUrlReconcile.contract';
import type { DriftRef, UrlReconcileResult } from '../src/sitePlatform/sweeps/urlReconcile';
import { trackProgress } from './progress';

const { findSitePlatformWebhookUrlDrift, recordSitePlatformWebhookUrlFailure } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});
const { reconcileSitePlatformWebhookUrl } = proxyActivities<Activities>({
  // Per shared site: a listing, up to 11 creates and the stale deletes, each bounded by the client's timeouts.
  startToCloseTimeout: '5 minutes',
  // Coded platform failures come back as results (inbox item raised); what throws is the database, worth a retry.
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
});

/**
 * The `site-platform-webhook-url-reconcile` sweep (hourly at minute 10, UTC): finds live OAuth connections with a
 * subscription at another URL than their receiver URL now (PUBLIC_APP_URL changed, or SECRET_HASH_KEY rotated the URL
 * token) — a database-only check — and re-registers them there, creating first and deleting the old ones last, one
 * activity per connection. A connection that cannot be moved gets a deduplicated inbox item; the sweep goes on.
 */
export async function sitePlatformWebhookUrlReconcile(input: SitePlatformUrlReconcileInput = {}): Promise<SitePlatformUrlReconcileSummary> {
  const budget = startSweepBudget(input);
  const progress = trackProgress('reconciling');
  const summary: SitePlatformUrlReconcileSummary = input.summary ?? {
    partial: false,
    configured: true,
    drifted: 0,
    reregistered: 0,
    failed: 0,
    skipped: 0,
    inbox_items_created: 0,
    connections: [],
    connections_truncated: false,
  };
  progress.advance(summary.drifted);
  for (let after = input.after ?? null; ;) {
    if (budget.spent()) return { ...summary, partial: true };
    const page = await findSitePlatformWebhookUrlDrift({
      after,
      limit: budget.pageSize,
      ...(input.accountId ? { accountId: input.accountId } : {}),
    });
    if (!page.configured) return { ...summary, configured: false, code: page.code };
    for (const connection of page.connections) {
      if (budget.spent()) return { ...summary, partial: true };
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
      progress.advance();
    }
    if (!page.next) return summary;
    after = page.next;
    if (workflowInfo().continueAsNewSuggested) {
      const next = makeContinueAsNewFunc<typeof sitePlatformWebhookUrlReconcile>({
        typedSearchAttributes: workflowInfo().typedSearchAttributes,
      });
      return next({ ...input, deadline: budget.deadline, after, summary });
    }
  }
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
