import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `site-platform-event-retention` sweep (sitePlatformEventRetention.ts). No I/O. */

export interface SitePlatformEventRetentionInput extends SweepInput {
  /** Rows deleted per statement (default 5,000, at most 50,000): short statements keep the receiver's table available. */
  batchSize?: number;
}

export interface SitePlatformEventRetentionResult {
  /** True when the budget ran out first; the next run finishes. */
  partial: boolean;
  /** Unverified rows older than 3 days, deleted. */
  deleted_unverified: number;
  /** Verified, dispatched rows older than 30 days, deleted. */
  deleted_verified: number;
}

export const sitePlatformEventRetentionContract = defineWorkflow<[SitePlatformEventRetentionInput?], SitePlatformEventRetentionResult>(
  'sitePlatformEventRetention',
  'site-platform-event-retention',
);
