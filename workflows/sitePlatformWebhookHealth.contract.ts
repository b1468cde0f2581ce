import type { SweepInput } from './sweepBudget';
import type { WebhookHealthStatus } from '../src/sitePlatform/sweeps/webhookHealth';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `site-platform-webhook-health` sweep (sitePlatformWebhookHealth.ts). No I/O. */

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
