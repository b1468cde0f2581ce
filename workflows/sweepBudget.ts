/**
 * The input every commerce sweep takes, and its wall-clock budget. Pure (no I/O, no Node built-ins): workflows
 * import it, and inside a workflow `Date.now()` is Temporal's deterministic workflow clock.
 */
export interface SweepInput {
  /** Wall-clock budget of one run (default 10 minutes, at most 1 hour); a run out of budget stops and reports `partial: true`. */
  budgetMs?: number;
  /** Rows read per activity call (default 100, at most 500). */
  pageSize?: number;
  /** Internal: the absolute deadline (epoch ms) a run carries across continue-as-new. */
  deadline?: number;
}

export const DEFAULT_SWEEP_BUDGET_MS = 10 * 60_000;
export const MAX_SWEEP_BUDGET_MS = 60 * 60_000;
export const DEFAULT_SWEEP_PAGE_SIZE = 100;
export const MAX_SWEEP_PAGE_SIZE = 500;

/** Most connections a sweep names one by one in its result (the counts stay exact); keeps results far below Temporal's payload limit. */
export const MAX_REPORTED_CONNECTIONS = 200;

const bounded = (value: unknown, fallback: number, max: number) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.min(Math.floor(value), max) : fallback;

export interface SweepBudget {
  pageSize: number;
  /** Epoch ms; pass it on when the run continues as new. */
  deadline: number;
  /** True once the budget is used up: the sweep stops before its next step. */
  spent(): boolean;
}

/** Starts the budget now. Out-of-range inputs fall back to the defaults rather than failing a scheduled run. */
export function startSweepBudget(input: SweepInput | undefined, now: () => number = Date.now): SweepBudget {
  const deadline =
    typeof input?.deadline === 'number' ? input.deadline : now() + bounded(input?.budgetMs, DEFAULT_SWEEP_BUDGET_MS, MAX_SWEEP_BUDGET_MS);
  return {
    pageSize: bounded(input?.pageSize, DEFAULT_SWEEP_PAGE_SIZE, MAX_SWEEP_PAGE_SIZE),
    deadline,
    spent: () => now() >= deadline,
  };
}

/** A connection a checking sweep names in its result, with what it found (`code` when the check failed). */
export interface ReportedConnection<Status extends string> {
  connection_id: string;
  account_id: string;
  shop_domain?: string;
  status: Status;
  inbox_item_created?: boolean;
  code?: string;
}

/** The result of a sweep that checks every connection and files inbox items: exact counts, the first connections named. */
export interface ConnectionCheckSummary<Entry> {
  /** True when the budget ran out before every connection was checked. */
  partial: boolean;
  checked: number;
  inbox_items_created: number;
  failed: number;
  connections: Entry[];
  connections_truncated: boolean;
}

/** Keeps the first `MAX_REPORTED_CONNECTIONS` entries of a per-connection report. */
export function reportConnection<T>(report: T[], entry: T): void {
  if (report.length < MAX_REPORTED_CONNECTIONS) report.push(entry);
}
