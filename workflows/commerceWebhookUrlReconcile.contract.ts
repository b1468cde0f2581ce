import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';
import type { ShopRef } from './commerceShopRef.contract';

/** The contract of the `commerce-webhook-url-reconcile` sweep (commerceWebhookUrlReconcile.ts). No I/O. */

/** The answer of the drift page activity. */
export type UrlDriftPage =
  | { configured: true; endpointUrl: string; connections: Array<ShopRef & { staleSubscriptions: number }>; next: string | null }
  /** PUBLIC_APP_URL is not set: there is no current URL to compare with. */
  | { configured: false; code: string };

/** The answer of the reconcile activity for one shop. */
export interface UrlReconcileResult {
  status: 'reregistered' | 'failed' | 'skipped';
  registered: number;
  failed: Array<{ topic: string; code: string }>;
  /** Why a connection was skipped (disconnected or gone since the page was read) or failed as a whole. */
  code?: string;
}

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
