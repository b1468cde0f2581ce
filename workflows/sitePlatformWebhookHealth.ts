import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { reportConnection } from './sweepBudget';
import { PAGE_ACTIVITY, ROW_ACTIVITY_RETRY, runSweep } from './sweep';
import {
  noWebhookHealthFindings,
  type SitePlatformWebhookHealthInput,
  type SitePlatformWebhookHealthSummary,
  type WebhookHealthEntry,
  type WebhookHealthResult,
} from './sitePlatformWebhookHealth.contract';
import type { ConnectionRef } from './sitePlatformSweeps.contract';

const { listSitePlatformWebhookHealthPage } = proxyActivities<Activities>(PAGE_ACTIVITY);
const { checkSitePlatformWebhooks } = proxyActivities<Activities>({
  // A listing per shared site and, when something is missing, the re-registration (per site under its lock).
  startToCloseTimeout: '5 minutes',
  retry: ROW_ACTIVITY_RETRY,
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
  let reported = input.reported ?? 0;
  return runSweep(input, {
    phase: 'checking',
    fresh: (): SitePlatformWebhookHealthSummary => ({
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
    }),
    page: (after, limit) => listSitePlatformWebhookHealthPage({ after, limit, ...(input.accountId ? { accountId: input.accountId } : {}) }),
    each: {
      items: (page) => page.connections,
      async visit(summary, ref) {
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
      },
    },
    resume: { done: (summary) => summary.checked, carry: () => ({ reported }) },
  });
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
    return { ...noWebhookHealthFindings('failed'), code: 'webhook_health_check_failed' };
  }
}
