import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `site-platform-webhook-url-reconcile` sweep (sitePlatformWebhookUrlReconcile.ts). No I/O. */

/** A connection whose webhooks are at another URL, as the reconcile activity takes it. */
export interface DriftRef {
  accountId: string;
  connectionId: string;
}

/** The answer of the drift page activity. */
export type UrlDriftPage =
  | { configured: true; connections: Array<DriftRef & { staleUrls: number }>; next: string | null }
  /** PUBLIC_APP_URL (or the secret hash key) is not set: there is no current URL to compare with. */
  | { configured: false; code: string };

/** The answer of the reconcile activity for one connection. */
export interface UrlReconcileResult {
  status: 'reregistered' | 'failed' | 'skipped';
  created: number;
  deleted: number;
  failed: Array<{ site_id: string; trigger_type: string; code: string }>;
  /** Subscription rows still at another URL after the re-registration (their delete failed: kept until it succeeds). */
  stillStale: number;
  code?: string;
  inboxItemCreated?: boolean;
}

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
