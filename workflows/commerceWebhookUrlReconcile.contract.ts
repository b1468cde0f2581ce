import type { SweepInput } from './sweepBudget';
import type { UrlReconcileResult } from '../src/commerce/sweeps/urlReconcile';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `commerce-webhook-url-reconcile` sweep (commerceWebhookUrlReconcile.ts). No I/O. */

export interface UrlReconcileSummary {
  /** True when the budget ran out before every drifted connection was re-registered. */
  partial: boolean;
  /** False when PUBLIC_APP_URL is not set: there is no current URL, nothing was compared (`code` says why). */
  configured: boolean;
  code?: string;
  endpoint_url: string | null;
  drifted: number;
  reregistered: number;
  failed: number;
  skipped: number;
  connections: Array<{
    connection_id: string;
    account_id: string;
    shop_domain: string;
    status: UrlReconcileResult['status'];
    registered: number;
    failed_topics: number;
    code?: string;
  }>;
  connections_truncated: boolean;
}

export interface UrlReconcileInput extends SweepInput {
  /** Internal: carried across continue-as-new. */
  after?: string | null;
  summary?: UrlReconcileSummary;
}

export const commerceWebhookUrlReconcileContract = defineWorkflow<[UrlReconcileInput?], UrlReconcileSummary>(
  'commerceWebhookUrlReconcile',
  'commerce-webhook-url-reconcile',
);
