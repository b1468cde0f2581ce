import { defineWorkflow } from './defineWorkflow';
import type { SweepInput } from './sweepBudget';

/** The contract of the `content-analytics-daily` sweep (contentAnalyticsDaily.ts). No I/O. */

export type ProjectFillStatus =
  'stored' | 'up_to_date' | 'collector_unavailable' | 'collector_not_configured' | 'no_collector_site' | 'project_gone';

/** What one call of the fill activity did for a project. */
export interface ProjectFillResult {
  account_id: string;
  project_id: string;
  status: ProjectFillStatus;
  /** Linked items with a page (a URL on the project's site). */
  items: number;
  items_capped: boolean;
  rows_stored: number;
  /** The days this call covered, oldest first. */
  days: string[];
  /** Days still to store after this call (the workflow calls again while the budget lasts). */
  remaining_days: number;
  rank_measured: number;
  /** The collector's error code when it could not answer (the day and later ones are filled on the next run). */
  code?: string;
}

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
