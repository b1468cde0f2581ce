import {
  ActivityFailure,
  condition,
  isCancellation,
  log,
  setHandler,
  sleep,
  workflowInfo,
  type ActivityOptions,
  type SignalDefinition,
} from '@temporalio/workflow';
import { HISTORY_EVENTS_PER_RUN, type DrainCarry, type DrainPassResult, type HandOver } from './outboxDrain.contract';
import { trackProgress } from './progress';

/** The activity options of a drain pass. */
export const DRAIN_PASS_OPTIONS: ActivityOptions = {
  // A pass ends at the first row past its budget (10 s); a row is bounded by its own work (a site re-index, a platform call).
  startToCloseTimeout: '10 minutes',
  // The pass heartbeats while it works; a worker that died mid-pass is noticed within this.
  heartbeatTimeout: '20 seconds',
  // From ISOLATE_FROM_ATTEMPT on, a pass isolates the row at fault and records it as failed; what still throws then is
  // the database, and the loop tries again after a pause.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 6 },
};

/** An entity silent this long closes its run; the relay's next signal-with-start opens a new one. */
const IDLE_CLOSE = '10 minutes';
/** Pause after a pass that failed every retry (the database down): the rows wait in their table, nothing is lost. */
const FAILED_PASS_PAUSE = '30 seconds';

export interface DrainLoop<P extends DrainPassResult> {
  /** The hand-over signal the relay sends (signal-with-start). */
  signal: SignalDefinition<[HandOver]>;
  carry: DrainCarry;
  /** The `progress` phase while passes run. */
  phase: string;
  /** Runs one pass: the activity that takes the oldest unprocessed rows from the table. */
  pass(): Promise<P>;
  /** After a pass, in the workflow (e.g. starting work the pass asked for). */
  afterPass?(result: P): Promise<void>;
  /** Continues as new with the carried summary. */
  continueAsNew(carry: DrainCarry): Promise<never>;
}

/**
 * The loop of an entity workflow that drains an outbox table. The workflow holds no row ids: each pass takes the
 * entity's oldest rows not yet processed, straight from the table, in full batches however long the run has been
 * going. A signal only wakes the loop; a new run always makes one pass first, so a run that replaced a
 * terminated or failed one picks up every row it left. A pass that failed every retry is tried again after a pause
 * (its rows stay in the table). Past HISTORY_EVENTS_PER_RUN events (checked after every pass but a run's first) or
 * when Temporal suggests it, the run continues as new, carrying only a count.
 */
export async function drainOutbox<P extends DrainPassResult>(loop: DrainLoop<P>): Promise<{ processed: number }> {
  let wanted = true;
  setHandler(loop.signal, () => {
    wanted = true;
  });
  const progress = trackProgress('idle');
  progress.advance(loop.carry.processed ?? 0);
  const historyLimit = loop.carry.historyEventsPerRun ?? HISTORY_EVENTS_PER_RUN;
  let passes = 0;

  for (;;) {
    if (!wanted) {
      const woken = await condition(() => wanted, IDLE_CLOSE);
      // A signal delivered in the same activation as the idle timer has set `wanted`: never close on it.
      if (!woken && !wanted) return { processed: progress.current.done };
    }
    wanted = false;
    progress.current.phase = loop.phase;
    try {
      const result = await loop.pass();
      progress.advance(result.handled);
      if (result.more) wanted = true;
      await loop.afterPass?.(result);
    } catch (err) {
      if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
      log.warn('outbox drain pass failed after its retries; trying again after a pause', { error: err.cause?.message ?? err.message });
      progress.current.phase = 'waiting_to_retry';
      await sleep(FAILED_PASS_PAUSE);
      wanted = true;
    }
    if (!wanted) progress.current.phase = 'idle';
    passes++;
    const info = workflowInfo();
    // Never on a run's first pass: a new run always makes one, so a bound one pass can reach would chain runs forever.
    if (passes > 1 && (info.historyLength >= historyLimit || info.continueAsNewSuggested)) {
      return loop.continueAsNew({ ...loop.carry, processed: progress.current.done });
    }
  }
}
