import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';
import type { ConnectionRef } from './sitePlatformSweeps.contract';

/** The contract of the `site-platform-token-health` sweep (sitePlatformTokenHealth.ts). No I/O. */

export type TokenCheckStatus =
  /** Introspection succeeded: count reset, scope and rate limit refreshed. */
  | 'healthy'
  /** Rejected, below the threshold (or too soon after the last counted rejection to count again). */
  | 'rejected'
  /** 5xx, timeout, rate limit, network: neither counts nor resets. */
  | 'unknown'
  | 'disconnected'
  /** Rejected at the threshold, but this run's disconnect cap is spent: it stays connected until the next run. */
  | 'disconnect_cap'
  /** The token cannot be opened with the configured keys (inbox item), or the check failed on our side. */
  | 'failed'
  /** Disconnected, reconnected or gone since the page was read. */
  | 'skipped';

/** The answer of the per-connection activity. */
export interface TokenCheckResult {
  status: TokenCheckStatus;
  /** The token was sealed under SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS and is now re-wrapped under the current key. */
  rewrapped: boolean;
  /** The consecutive-rejection count after this check. */
  rejections?: number;
  /** Whether this check's rejection was counted (false when it came too soon after the last counted one). */
  counted?: boolean;
  code?: string;
  revertedProjectIds?: string[];
  inboxItemCreated?: boolean;
}

/** The answer of the page activity: `configured: false` when no token key is set. */
export type TokenPage = { configured: true; connections: ConnectionRef[]; next: string | null } | { configured: false; code: string };

export interface TokenHealthEntry {
  connection_id: string;
  account_id: string;
  status: TokenCheckStatus;
  rejections?: number;
  rewrapped?: boolean;
  reverted_project_ids?: string[];
  inbox_item_created?: boolean;
  code?: string;
}

export interface TokenHealthSummary {
  /** True when the budget ran out before every connection was checked. */
  partial: boolean;
  /** False when SITE_PLATFORM_TOKEN_ENCRYPTION_KEY is not set: no token can be read, nothing was checked (`code` says why). */
  configured: boolean;
  code?: string;
  /** The disconnects this run may make. */
  disconnect_cap: number;
  checked: number;
  healthy: number;
  /** Rejected, not (yet) at the disconnect threshold. */
  rejected: number;
  /** 5xx, timeouts, rate limits: neither counted nor reset. */
  unknown: number;
  disconnected: number;
  /** At the threshold but over this run's cap: left connected for the next run. */
  capped: number;
  rewrapped: number;
  failed: number;
  skipped: number;
  inbox_items_created: number;
  /** Every connection not found healthy (the first 200 named; counts stay exact). */
  connections: TokenHealthEntry[];
  connections_truncated: boolean;
}

/** Default and ceiling of the disconnects one run makes; the rest are reported `disconnect_cap` and wait for the next run. */
export const DEFAULT_DISCONNECT_CAP = 10;
export const MAX_DISCONNECT_CAP = 100;

export interface TokenHealthInput extends SweepInput {
  /** Most disconnects this run makes (default 10, at most 100). */
  disconnectCap?: number;
  /** Only this account's connections (support, tests); every account's when absent (the schedule). */
  accountId?: string;
  /** Internal: carried across continue-as-new. */
  after?: string | null;
  summary?: TokenHealthSummary;
}

export const sitePlatformTokenHealthContract = defineWorkflow<[TokenHealthInput?], TokenHealthSummary>(
  'sitePlatformTokenHealth',
  'site-platform-token-health',
);
