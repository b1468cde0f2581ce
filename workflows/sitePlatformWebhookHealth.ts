import { ActivityFailure, makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection, startSweepBudget } from './sweepBudget';
import type {
  SitePlatformWebhookHealthInput,
  SitePlatformWebhookHealthSummary,
  WebhookHealthEntry,
} from './sitePlatformWebhookHealth.contract';
import type { ConnectionRef } from '../src/sitePlatform/sweeps/tokenHealth';
import type { WebhookHealthResult } from '../src/sitePlatform/sweeps/webhookHealth';
import { trackProgress } from './progress';

const { listSitePlatformWebhookHealthPage } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
});
const { checkSitePlatformWebhooks } = proxyActivities<Activities>({
  // A listing per shared site and, when something is missing, the re-registration (per site under its lock).
  startToCloseTimeout: '5 minutes',
  // Platform failures come back as results (inbox items raised); what throws is the database, worth a retry.
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
});

/**
 * The `site-platform-webhook-health` sweep (hourly at minute 40, UTC), one activity per live connection. OAuth: the
 * platform's registrations on every shared site against the 11 wanted triggers at the expected receiver URL and the
 * subscription rows; missing, foreign-URL or unrecorded registrations are re-registered (and registrations of this
 * receiver whose connection is gone deleted), failures raise an inbox item.
 * Silent OAuth connections (7 days) and site-token connections that never received a delivery (72 hours after
 * install) raise one deduplicated inbox item each.
 */
export async function sitePlatformWebhookHealth(input: SitePlatformWebhookHealthInput = {}): Promise<SitePlatformWebhookHealthSummary> {
  const budget = startSweepBudget(input);
  const progress = trackProgress('checking');
  const summary: SitePlatformWebhookHealthSummary = input.summary ?? {
    partial: false,
    checked: 0,
    healthy: 0,
    reregistered: 0,
    reregister_failed: 0,
    silent: 0,
    failed: 0,
    skipped: 0,
    inbox_items_created: 0,
    connections: [],
    connections_truncated: false,
  };
  progress.advance(summary.checked);
  let reported = input.reported ?? 0;
  for (let after = input.after ?? null; ;) {
    if (budget.spent()) return { ...summary, partial: true };
    const page = await listSitePlatformWebhookHealthPage({
      after,
      limit: budget.pageSize,
      ...(input.accountId ? { accountId: input.accountId } : {}),
    });
    for (const ref of page.connections) {
      if (budget.spent()) return { ...summary, partial: true };
      const result = await checkOne(ref);
      summary.checked++;
      if (result.status === 'healthy') summary.healthy++;
      else if (result.status === 'reregistered') summary.reregistered++;
      else if (result.status === 'reregister_failed') summary.reregister_failed++;
      else if (result.status === 'failed') summary.failed++;
      else if (result.status === 'skipped') summary.skipped++;
      if (result.silent) summary.silent++;
      summary.inbox_items_created += result.inboxItemsCreated;
      const plain = (result.status === 'healthy' || result.status === 'site_token') && !result.silent;
      if (!plain) {
        reported++;
        reportConnection(summary.connections, entryOf(ref, result));
      }
      summary.connections_truncated = summary.connections.length < reported;
      progress.advance();
    }
    if (!page.next) return summary;
    after = page.next;
    if (workflowInfo().continueAsNewSuggested) {
      const next = makeContinueAsNewFunc<typeof sitePlatformWebhookHealth>({ typedSearchAttributes: workflowInfo().typedSearchAttributes });
      return next({ ...input, deadline: budget.deadline, after, summary, reported });
    }
  }
}

function entryOf(ref: ConnectionRef, r: WebhookHealthResult): WebhookHealthEntry {
  const entry: WebhookHealthEntry = {
    connection_id: ref.connectionId,
    account_id: ref.accountId,
    status: r.status,
    missing: r.missing,
    at_other_url: r.foreign,
    unrecorded: r.unrecorded,
    stale_rows: r.staleRows,
    orphans: r.orphans,
    silent: r.silent,
    inbox_items_created: r.inboxItemsCreated,
  };
  if (r.registration) entry.registration = r.registration;
  if (r.code) entry.code = r.code;
  return entry;
}

async function checkOne(ref: ConnectionRef): Promise<WebhookHealthResult> {
  try {
    return await checkSitePlatformWebhooks(ref);
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    // Retries are spent (the database): reported, and the sweep goes on; the next run checks it again.
    return {
      status: 'failed',
      sites: 0,
      missing: 0,
      foreign: 0,
      unrecorded: 0,
      staleRows: 0,
      orphans: 0,
      silent: false,
      inboxItemsCreated: 0,
      code: 'webhook_health_check_failed',
    };
  }
}
