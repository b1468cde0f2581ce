import { OutboxRelay, RelayWakeups, type PassResult } from '../temporal/outboxRelay';
import { startAlertDelivery, type DispatchDeps } from './dispatch';
import { undispatchedEvents } from './store';

/** Most events one pass hands over (a full pass is followed at once by the next). */
export const ALERT_RELAY_BATCH = 200;
/** Pause between passes when idle: alerts recorded by activities (job closings, sweeps) wait at most about this. */
export const ALERT_RELAY_IDLE_MS = 2_000;
/** Pause after a pass whose hand-overs failed (Temporal down): the events wait in the table, nothing is lost. */
export const ALERT_RELAY_RETRY_MS = 30_000;
const STARTS_IN_PARALLEL = 8;

/**
 * Hands alert events to their delivery workflows (`alert-event:<eventId>`): events recorded where no Temporal client
 * is at hand (the job events interceptor's activity, sweeps, inbox items) and those whose start failed. The API process
 * runs it; one indexed query per idle pass finds nothing almost every time. Starting is idempotent (deterministic
 * workflow id, a completed run is attached to), so replicas running it at once never deliver an event twice.
 */
export class AlertEventRelay extends OutboxRelay {
  constructor(
    private readonly deps: DispatchDeps,
    private readonly options: { minAgeMs?: number; batch?: number; idleMs?: number; retryMs?: number } = {},
  ) {
    super(
      deps.logger,
      new RelayWakeups(),
      {
        batch: options.batch ?? ALERT_RELAY_BATCH,
        busyMs: 0,
        idleMs: options.idleMs ?? ALERT_RELAY_IDLE_MS,
        retryMs: options.retryMs ?? ALERT_RELAY_RETRY_MS,
      },
      'alert event',
    );
  }

  async dispatchOnce(): Promise<PassResult> {
    const events = await undispatchedEvents(this.deps.db, this.options.minAgeMs ?? 0, this.options.batch ?? ALERT_RELAY_BATCH);
    const result: PassResult = { claimed: events.length, dispatched: 0, failed: 0 };
    for (let at = 0; at < events.length; at += STARTS_IN_PARALLEL) {
      const starts = events
        .slice(at, at + STARTS_IN_PARALLEL)
        .map((event) => startAlertDelivery(this.deps, event.account_id, event.id, 'alert-relay'));
      for (const outcome of await Promise.allSettled(starts)) {
        if (outcome.status === 'fulfilled') result.dispatched++;
        else result.failed++;
      }
    }
    if (result.failed > 0) this.deps.logger.warn({ failed: result.failed }, 'alert event workflows could not be started; retrying later');
    return result;
  }
}
