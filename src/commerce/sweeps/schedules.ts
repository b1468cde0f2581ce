import type { ScheduleEntry } from '../../temporal/schedules';

/**
 * The commerce reliability sweeps of doc3 (crons in UTC, as the spec gives them) and the delivery-record purge.
 * Each runs with its default input (10-minute budget); a run still going when the next is due is skipped.
 */
export const COMMERCE_SWEEP_SCHEDULES: ScheduleEntry[] = [
  {
    name: 'commerce-webhook-health',
    cron: '0 * * * *',
    workflowType: 'commerceWebhookHealth',
    args: [],
    overlap: 'SKIP',
    description: 'Flags connected shops installed over 72 hours whose active webhook subscriptions received nothing for 72 hours (or that have none): inbox item commerce_webhooks_silent. Detection only.',
  },
  {
    name: 'commerce-compliance-sweep',
    cron: '30 * * * *',
    workflowType: 'commerceComplianceSweep',
    args: [],
    overlap: 'SKIP',
    description: 'Starts (or attaches to) the fulfilment workflow of every unfulfilled privacy request; raises an urgent alert once per request unfulfilled after 30 days.',
  },
  {
    name: 'commerce-scope-drift',
    cron: '0 6 * * *',
    workflowType: 'commerceScopeDrift',
    args: [],
    overlap: 'SKIP',
    description: 'Compares each connected shop\'s granted scope with the requested scope list; inbox item commerce_reconnect_suggested when scopes are missing.',
  },
  {
    name: 'commerce-webhook-url-reconcile',
    cron: '0 5 * * *',
    workflowType: 'commerceWebhookUrlReconcile',
    args: [],
    overlap: 'SKIP',
    description: 'Re-registers every standard webhook topic of shops with a subscription at another URL than the current one (PUBLIC_APP_URL changed); failures become inbox items.',
  },
  {
    name: 'commerce-delivery-purge',
    cron: '15 3 * * *',
    workflowType: 'commerceDeliveryPurge',
    args: [],
    overlap: 'SKIP',
    description: 'Deletes webhook delivery records (durable dedup) older than 7 days; the platform retries for 48 hours at most.',
  },
];
