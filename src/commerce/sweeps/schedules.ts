import { defineSchedule, type ScheduleEntry } from '../../temporal/schedules';
import { commerceComplianceSweepContract } from '../../../workflows/commerceComplianceSweep.contract';
import { commerceDeliveryPurgeContract } from '../../../workflows/commerceDeliveryPurge.contract';
import { commerceScopeDriftContract } from '../../../workflows/commerceScopeDrift.contract';
import { commerceWebhookHealthContract } from '../../../workflows/commerceWebhookHealth.contract';
import { commerceWebhookUrlReconcileContract } from '../../../workflows/commerceWebhookUrlReconcile.contract';

/**
 * The commerce reliability sweeps of doc3 (crons in UTC, as the spec gives them) and the delivery-record purge.
 * Each runs with its default input (10-minute budget); a run still going when the next is due is skipped.
 */
export const COMMERCE_SWEEP_SCHEDULES: ScheduleEntry[] = [
  defineSchedule(commerceWebhookHealthContract, {
    name: 'commerce-webhook-health',
    cron: '0 * * * *',
    args: [],
    overlap: 'SKIP',
    description:
      'Flags connected shops installed over 72 hours whose active webhook subscriptions received nothing for 72 hours (or that have none): inbox item commerce_webhooks_silent. Detection only.',
  }),
  defineSchedule(commerceComplianceSweepContract, {
    name: 'commerce-compliance-sweep',
    cron: '30 * * * *',
    args: [],
    overlap: 'SKIP',
    description:
      'Starts (or attaches to) the fulfilment workflow of every unfulfilled privacy request; raises an urgent alert once per request unfulfilled after 30 days.',
  }),
  defineSchedule(commerceScopeDriftContract, {
    name: 'commerce-scope-drift',
    cron: '0 6 * * *',
    args: [],
    overlap: 'SKIP',
    description:
      "Compares each connected shop's granted scope with the requested scope list; inbox item commerce_reconnect_suggested when scopes are missing.",
  }),
  defineSchedule(commerceWebhookUrlReconcileContract, {
    name: 'commerce-webhook-url-reconcile',
    cron: '0 5 * * *',
    args: [],
    overlap: 'SKIP',
    description:
      'Re-registers every standard webhook topic of shops with a subscription at another URL than the current one (PUBLIC_APP_URL changed); failures become inbox items.',
  }),
  defineSchedule(commerceDeliveryPurgeContract, {
    name: 'commerce-delivery-purge',
    cron: '15 3 * * *',
    args: [],
    overlap: 'SKIP',
    description: 'Deletes webhook delivery records (durable dedup) older than 7 days; the platform retries for 48 hours at most.',
  }),
];
