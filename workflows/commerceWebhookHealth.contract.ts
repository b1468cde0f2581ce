import type { ConnectionCheckSummary, ReportedConnection, SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `commerce-webhook-health` sweep (commerceWebhookHealth.ts). No I/O. */

export interface WebhookHealthSummary extends ConnectionCheckSummary<ReportedConnection<'silent' | 'failed'>> {
  silent: number;
  /** New inbox items; a connection already flagged by an open item is counted in `silent` only. */
  inbox_items_created: number;
}

export const commerceWebhookHealthContract = defineWorkflow<[SweepInput?], WebhookHealthSummary>(
  'commerceWebhookHealth',
  'commerce-webhook-health',
);
