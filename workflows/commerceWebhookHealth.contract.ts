import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `commerce-webhook-health` sweep (commerceWebhookHealth.ts). No I/O. */

export interface WebhookHealthSummary {
  /** True when the budget ran out before every connection was checked. */
  partial: boolean;
  checked: number;
  silent: number;
  /** New inbox items; a connection already flagged by an open item is counted in `silent` only. */
  inbox_items_created: number;
  failed: number;
  connections: Array<{
    connection_id: string;
    account_id: string;
    shop_domain?: string;
    status: 'silent' | 'failed';
    inbox_item_created?: boolean;
    code?: string;
  }>;
  connections_truncated: boolean;
}

export const commerceWebhookHealthContract = defineWorkflow<[SweepInput?], WebhookHealthSummary>(
  'commerceWebhookHealth',
  'commerce-webhook-health',
);
