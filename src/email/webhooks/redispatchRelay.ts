import { OutboxRelay, RelayWakeups, type PassResult } from '../../temporal/outboxRelay';
import { startEventDelivery, type DispatchDeps } from './dispatch';
import { undispatchedEvents } from './store';

/** An event whose emitter has not handed it over within this long is handed over by the relay. */
export const REDISPATCH_MIN_AGE_MS = 60_000;
/** Most events one pass hands over (a full pass is followed at once by the next). */
export const REDISPATCH_BATCH = 200;
/** Pause between passes when idle, and after a pass whose hand-overs failed (Temporal still down). */
export const REDISPATCH_IDLE_MS = 30_000;
/** Workflow starts at once within a pass. */
const STARTS_IN_PARALLEL = 8;

/**
 * Hands over email events whose delivery workflow was never started (Temporal was unreachable when they were emitted).
 * It replaced the every-minute `email-event-redispatch` Schedule, which started a workflow a minute (1,440 runs a day
 * in the operators' workflow list) to find nothing almost every time: the API process now runs this relay, which reads
 * one indexed query per pass and starts work only for events that need it. Starting is idempotent (deterministic
 * workflow id `email-event:<eventId>`, a completed run is attached to, never re-run), so API replicas running it at the
 * same time never deliver an event twice.
 */
export class EmailEventRedispatcher extends OutboxRelay {
  constructor(
    private readonly deps: DispatchDeps,
    private readonly options: { minAgeMs?: number; batch?: number; idleMs?: number } = {},
  ) {
    const idleMs = options.idleMs ?? REDISPATCH_IDLE_MS;
    super(
      deps.logger,
      new RelayWakeups(),
      { batch: options.batch ?? REDISPATCH_BATCH, busyMs: 0, idleMs, retryMs: idleMs },
      'email event re-dispatch',
    );
  }

  async dispatchOnce(): Promise<PassResult> {
    const events = await undispatchedEvents(
      this.deps.db,
      this.options.minAgeMs ?? REDISPATCH_MIN_AGE_MS,
      this.options.batch ?? REDISPATCH_BATCH,
    );
    const result: PassResult = { claimed: events.length, dispatched: 0, failed: 0 };
    for (let at = 0; at < events.length; at += STARTS_IN_PARALLEL) {
      const starts = events
        .slice(at, at + STARTS_IN_PARALLEL)
        .map((event) => startEventDelivery(this.deps, event.account_id, event.id, 'email-event-redispatch'));
      for (const outcome of await Promise.allSettled(starts)) {
        if (outcome.status === 'fulfilled') result.dispatched++;
        else result.failed++;
      }
    }
    if (result.failed > 0) this.deps.logger.warn({ failed: result.failed }, 'email event workflows could not be started; retrying later');
    return result;
  }
}
