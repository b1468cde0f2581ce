import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `site-platform-webhook-health` sweep (sitePlatformWebhookHealth.ts). No I/O. */

export type WebhookHealthStatus =
  /** Every wanted registration is on the platform at the expected URL and recorded. */
  | 'healthy'
  /** Something was missing, at another URL or unrecorded: re-registered, and it worked. */
  | 'reregistered'
  /** The re-registration left failures (inbox item). */
  | 'reregister_failed'
  /** A site-token connection: nothing to list, only the delivery check. */
  | 'site_token'
  /** The check itself failed (a platform error while listing, an unreadable token, no PUBLIC_APP_URL). */
  | 'failed'
  /** Disconnected or gone since the page was read. */
  | 'skipped';

/** The answer of the per-connection activity. */
export interface WebhookHealthResult {
  status: WebhookHealthStatus;
  sites: number;
  /** Wanted registrations the platform does not have at the expected URL. */
  missing: number;
  /** This connection's registrations at another URL (an old PUBLIC_APP_URL or URL token). */
  foreign: number;
  /** Registrations at the expected URL without a subscription row. */
  unrecorded: number;
  /** Subscription rows whose registration the platform no longer lists. */
  staleRows: number;
  /** Registrations of this service's receiver on the connection's sites whose connection is gone (src/sitePlatform/webhooks/orphans.ts). */
  orphans: number;
  registration?: { created: number; adopted: number; deleted: number; failed: number };
  /** Silent (OAuth) or never received (site token), per the thresholds of src/sitePlatform/sweeps/webhookHealth.ts. */
  silent: boolean;
  inboxItemsCreated: number;
  code?: string;
}

/** A connection's result before anything is counted. */
export const noWebhookHealthFindings = (status: WebhookHealthStatus): WebhookHealthResult => ({
  status,
  sites: 0,
  missing: 0,
  foreign: 0,
  unrecorded: 0,
  staleRows: 0,
  orphans: 0,
  silent: false,
  inboxItemsCreated: 0,
});

export interface WebhookHealthEntry {
  connection_id: string;
  account_id: string;
  status: WebhookHealthStatus;
  missing: number;
  at_other_url: number;
  unrecorded: number;
  stale_rows: number;
  /** Registrations of this service's receiver on the connection's sites whose connection is gone (deleted by the repair). */
  orphans: number;
  silent: boolean;
  registration?: { created: number; adopted: number; deleted: number; failed: number };
  inbox_items_created: number;
  code?: string;
}

export interface SitePlatformWebhookHealthSummary {
  /** True when the budget ran out before every connection was checked. */
  partial: boolean;
  checked: number;
  healthy: number;
  reregistered: number;
  reregister_failed: number;
  /** OAuth connections silent past the threshold, plus site-token connections that never received a delivery. */
  silent: number;
  failed: number;
  skipped: number;
  inbox_items_created: number;
  /** Every connection that was not plainly healthy (the first 200 named; counts stay exact). */
  connections: WebhookHealthEntry[];
  connections_truncated: boolean;
}

export interface SitePlatformWebhookHealthInput extends SweepInput {
  /** Only this account's connections (support, tests); every account's when absent (the schedule). */
  accountId?: string;
  /** Internal: carried across continue-as-new. */
  after?: string | null;
  summary?: SitePlatformWebhookHealthSummary;
  reported?: number;
}

export const sitePlatformWebhookHealthContract = defineWorkflow<[SitePlatformWebhookHealthInput?], SitePlatformWebhookHealthSummary>(
  'sitePlatformWebhookHealth',
  'site-platform-webhook-health',
);
