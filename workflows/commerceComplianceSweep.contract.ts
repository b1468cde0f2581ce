import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `commerce-compliance-sweep` (commerceComplianceSweep.ts). No I/O. */

export interface ComplianceSweepSummary {
  /** True when the budget ran out before every unfulfilled request was alerted and (re)started. */
  partial: boolean;
  /** Requests past 30 days alerted by this run (each is alerted once). */
  alerted: number;
  /**
   * Unfulfilled requests with fulfilment rules seen, and what happened to their workflow `commerce-privacy:<id>`
   * (requests of other topics stay unfulfilled and are only alerted).
   */
  unfulfilled: number;
  /** A new run started: none had run, or the last run closed with the request still unfulfilled. */
  started: number;
  /** A run was open: nothing new started. */
  already_running: number;
  by_topic: Record<string, number>;
}

export interface ComplianceSweepInput extends SweepInput {
  /** Internal: carried across continue-as-new. */
  after?: string | null;
  summary?: ComplianceSweepSummary;
}

export const commerceComplianceSweepContract = defineWorkflow<[ComplianceSweepInput?], ComplianceSweepSummary>(
  'commerceComplianceSweep',
  'commerce-compliance-sweep',
);
