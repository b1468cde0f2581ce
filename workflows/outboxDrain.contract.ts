/**
 * The contract shared by the entity workflows that drain an outbox table (a shop's webhook deliveries, a site's
 * platform events). No I/O: `src/` imports it.
 */

/**
 * What a relay's hand-over signal says: rows of this entity's outbox were handed over (or handed over again, when
 * they stayed unprocessed too long). It is a wake-up, kept for the history: the workflow reads the rows from the
 * table, so a lost, repeated or late signal changes nothing but when the next pass runs.
 */
export interface HandOver {
  /** The oldest seq handed over, and how many rows. */
  fromSeq: number;
  count: number;
  /** Handed over again: the rows were handed over before and are still not processed. */
  again?: boolean;
}

/** What a drain run carries into the next run (continue-as-new): a bounded summary, never the pending rows. */
export interface DrainCarry {
  /** Rows processed by earlier runs of the chain (the `progress` query counts across runs). */
  processed?: number;
  /** Continue as new once the run's history has this many events (default HISTORY_EVENTS_PER_RUN), after its second pass at the earliest. */
  historyEventsPerRun?: number;
  /** Rows one pass takes per transaction (default: the workflow's own). */
  batch?: number;
  /** A pass ends at the first row boundary past this many milliseconds (default: the workflow's own). */
  passBudgetMs?: number;
}

/** What one drain pass (an activity call) answers. */
export interface DrainPassResult {
  /** Rows given an outcome by this pass. */
  handled: number;
  /** More rows may be waiting: the pass ended on its batch size or budget. */
  more: boolean;
}

/**
 * A run continues as new past this many history events (or when Temporal suggests it, at 4 Ki events or 4 MB),
 * checked after every pass: a pass adds about six events, so a run stays far below Temporal's limits (51,200 events,
 * 50 MB) however long a backlog lasts.
 */
export const HISTORY_EVENTS_PER_RUN = 2_000;

/**
 * From this attempt of a failing pass on, each row is worked in its own transaction and a row whose handler keeps
 * throwing (not a database outage) is recorded as failed, so one bad row never blocks the others.
 */
export const ISOLATE_FROM_ATTEMPT = 3;
