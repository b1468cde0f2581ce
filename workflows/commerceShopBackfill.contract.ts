import { defineWorkflow } from './defineWorkflow';
import type { ShopRef } from './commerceShopRef.contract';

/** The contract of one connection's order backfill (commerceShopBackfill.ts), a child of the hourly sweep. No I/O. */

export interface ShopBackfillInput extends ShopRef {
  /** Orders per page, 1–250 (default 250). */
  pageSize?: number;
  /** Pages per run before continuing as new (default 20), or earlier when Temporal suggests it. */
  pagesPerRun?: number;
  /** Wall-clock end of the budget (epoch ms); past it the backfill stops after its current page, `partial`. */
  deadline?: number | null;
  /** Carried across continue-as-new: the next page's cursor and what the earlier runs did. */
  pageInfo?: string | null;
  carried?: ShopBackfillResult;
}

/** What one connection's backfill did (the sweep's summary lists these). */
export interface ShopBackfillResult {
  connection_id: string;
  account_id: string;
  shop_domain: string;
  /** `done`: every page ingested; `partial`: the budget ran out first; `failed`: see `error` (an inbox item says so too). */
  status: 'running' | 'done' | 'partial' | 'failed';
  window_start: string | null;
  pages: number;
  fetched: number;
  ingested: number;
  unchanged: number;
  invalid: number;
  bridge_errors: number;
  newest_updated_at: string | null;
  /** Workflow runs (continue-as-new) this backfill took. */
  runs: number;
  error: { code: string; message: string } | null;
}

/** `commerce-order-backfill:<account>:<connection>`: the kind is the sweep's, whose children these runs are. */
export const commerceShopBackfillContract = defineWorkflow<[ShopBackfillInput], ShopBackfillResult>(
  'commerceShopBackfill',
  'commerce-order-backfill',
);
