import type { ShopBackfillResult } from './commerceShopBackfill.contract';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `commerce-order-backfill` sweep (commerceOrderBackfill.ts). No I/O. */

export interface OrderBackfillInput {
  /** Wall-clock budget of the sweep (default 10 minutes); what it does not reach waits for the next hour. */
  budgetMs?: number;
  /** Orders per page (default 250, the platform's maximum). */
  pageSize?: number;
  /** Pages per run of each shop's backfill before it continues as new (default 20). */
  pagesPerRun?: number;
  /** Shops backfilled at once (default 2). */
  concurrency?: number;
  /** Carried across continue-as-new. */
  deadline?: number;
  afterId?: string | null;
  summary?: OrderBackfillSummary;
}

export interface OrderBackfillSummary {
  /** True when the budget ran out before every connection was backfilled to the end. */
  partial: boolean;
  connections: number;
  ingested: number;
  unchanged: number;
  invalid: number;
  failed: number;
  results: Array<ShopBackfillResult | SkippedShop>;
  results_truncated: boolean;
}

/** A connection the sweep did not backfill: the budget was spent, or a backfill of it was still running. */
export type SkippedShop = Pick<ShopBackfillResult, 'connection_id' | 'account_id' | 'shop_domain'> & {
  status: 'skipped' | 'already_running';
};

export const commerceOrderBackfillContract = defineWorkflow<[OrderBackfillInput?], OrderBackfillSummary>(
  'commerceOrderBackfill',
  'commerce-order-backfill',
);
