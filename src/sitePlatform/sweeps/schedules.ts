import { defineSchedule, type ScheduleEntry } from '../../temporal/schedules';
import { sitePlatformEventRetentionContract } from '../../../workflows/sitePlatformEventRetention.contract';
import { sitePlatformTokenHealthContract } from '../../../workflows/sitePlatformTokenHealth.contract';
import { sitePlatformWebhookHealthContract } from '../../../workflows/sitePlatformWebhookHealth.contract';
import { sitePlatformWebhookUrlReconcileContract } from '../../../workflows/sitePlatformWebhookUrlReconcile.contract';

/**
 * The four site platform sweeps of doc2 (crons in UTC; the spec leaves the cadences to us — docs/site-platform.md, "Site platform
 * sweeps" gives the reasons). Each runs with its default input (10-minute budget, `partial: true` when it runs out);
 * a run still going when the next is due is skipped. Run-now: `POST /api/cron/<name>` with the cron secret; the
 * connection sweeps take `account_id` there (one account only), token health also `disconnect_cap`.
 */
export const SITE_PLATFORM_SWEEP_SCHEDULES: ScheduleEntry[] = [
  defineSchedule(sitePlatformTokenHealthContract, {
    name: 'site-platform-token-health',
    cron: '20 */6 * * *',
    args: [],
    overlap: 'SKIP',
    runNowOptions: ['account_id', 'disconnect_cap'],
    description:
      'Introspects every live connection: re-wraps tokens under the current key, refreshes scope and rate limit, and disconnects a connection the platform rejected (401) on 2 checks in a row at least an hour apart (5xx and timeouts do not count); at most 10 disconnects a run, the rest reported disconnect_cap. Projects fall back to the native CMS; inbox item site_platform_token_disconnected keeps their ids.',
  }),
  defineSchedule(sitePlatformWebhookHealthContract, {
    name: 'site-platform-webhook-health',
    cron: '40 * * * *',
    args: [],
    overlap: 'SKIP',
    runNowOptions: ['account_id'],
    description:
      "Compares each OAuth connection's webhook registrations on every shared site with the 11 triggers at its receiver URL and with the subscription rows; re-registers what is missing or at another URL (failures: inbox item). Inbox items for connections silent 7 days, and for site-token connections with no delivery 72 hours after connecting.",
  }),
  defineSchedule(sitePlatformWebhookUrlReconcileContract, {
    name: 'site-platform-webhook-url-reconcile',
    cron: '10 * * * *',
    args: [],
    overlap: 'SKIP',
    runNowOptions: ['account_id'],
    description:
      'Re-registers the webhooks of OAuth connections with a subscription at another URL than their receiver URL now (PUBLIC_APP_URL changed or the URL token rotated), creating first and deleting the old ones last; failures become inbox items.',
  }),
  defineSchedule(sitePlatformEventRetentionContract, {
    name: 'site-platform-event-retention',
    cron: '25 3 * * *',
    args: [],
    overlap: 'SKIP',
    description:
      'Deletes inbound site platform events past retention: unverified rows after 3 days, verified rows already dispatched after 30 days, in bounded batches.',
  }),
];
