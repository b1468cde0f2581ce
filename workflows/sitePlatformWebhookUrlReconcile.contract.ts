import type { SweepInput } from './sweepBudget';
import type { UrlReconcileResult } from '../src/sitePlatform/sweeps/urlReconcile';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `site-platform-webhook-url-reconcile` sweep (sitePlatformWebhookUrlReconcile.ts). No I/O. */

export interface SitePlatformUrlReconcileSummary {
  /** True when the budget ran out before every drifted connection was re-registered. */
  partial: boolean;
  /** False when PUBLIC_APP_URL (or SECRET_HASH_KEY) is not set: there is no current URL, nothing was compared (`code` says why). */
  configured: boolean;
  code?: string;
  /** Connections with a subscription row at another URL than their receiver URL now. */
  drifted: number;
  reregistered: number;
  failed: number;
  skipped: number;
  inbox_items_created: number;
  connections: Array<{
    connection_id: string;
    account_id: string;
    status: UrlReconcileResult['status'];
    stale_urls: number;
    created: number;
    deleted: number;
    failed_triggers: number;
    still_at_old_url: number;
    code?: string;
  }>;
  connections_truncated: boolean;
}

export interface SitePlatformUrlReconcileInput extends SweepInput {
  /** Only this account's connections (support, tests); every account's when absent (the schedule). */
  accountId?: string;
  /** Internal: carried across continue-as-new. */
  after?: string | null;
  summary?: SitePlatformUrlReconcileSummary;
}

export const sitePlatformWebhookUrlReconcileContract = defineWorkflow<[SitePlatformUrlReconcileInput?], SitePlatformUrlReconcileSummary>(
  'sitePlatformWebhookUrlReconcile',
  'site-platform-webhook-url-reconcile',
);
