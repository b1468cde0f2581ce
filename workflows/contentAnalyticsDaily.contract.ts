import type { ProjectFillResult } from '../src/marketing/analytics/nightly';
import { defineWorkflow } from './defineWorkflow';
import type { SweepInput } from './sweepBudget';

/** The contract of the `content-analytics-daily` sweep (contentAnalyticsDaily.ts). No I/O. */

export interface ContentAnalyticsDailyInput extends SweepInput {
  /** Days one activity call stores per project (default 7, at most 30). */
  daysPerCall?: number;
  /** Internal: where a run continued as new. */
  afterProjectId?: string | null;
  summary?: ContentAnalyticsDailySummary;
}

export interface ContentAnalyticsDailySummary {
  /** True when the budget ran out before every project was brought up to yesterday; the next run goes on. */
  partial: boolean;
  projects: number;
  items: number;
  rows_stored: number;
  rank_measured: number;
  /** Projects whose collector did not answer: their missing days are filled on a later run. */
  collector_unavailable: number;
  /** Projects whose activity failed after its retries (the database, a bug). */
  failed: number;
  /** Per project, the first MAX_REPORTED_CONNECTIONS of those that stored rows or did not answer. */
  results: Array<ProjectFillResult | { account_id: string; project_id: string; status: 'failed'; code: string }>;
  results_truncated: boolean;
}

export const contentAnalyticsDailyContract = defineWorkflow<[ContentAnalyticsDailyInput?], ContentAnalyticsDailySummary>(
  'contentAnalyticsDaily',
  'content-analytics-daily',
);
