import { EventHandOverRelay } from '../../webhookKit/handOverRelay';
import { startEventDelivery, type DispatchDeps } from './dispatch';
import { undispatchedEvents } from './store';

/** An event whose emitter has not handed it over within this long is handed over by the relay. */
export const REDISPATCH_MIN_AGE_MS = 60_000;
/** Most events one pass hands over (a full pass is followed at once by the next). */
export const REDISPATCH_BATCH = 200;
/** Pause between passes when idle, and after a pass whose hand-overs failed (Temporal still down). */
export const REDISPATCH_IDLE_MS = 30_000;

/**
 * Hands over email events whose delivery workflow was never started (Temporal was unreachable when they were emitted).
 * It replaced the every-minute `email-event-redispatch` Schedule, which started a workflow a minute (1,440 runs a day
 * in the operators' workflow list) to find nothing almost every time: the API process now runs this relay, which
 * starts work only for events that need it.
 */
export class EmailEventRedispatcher extends EventHandOverRelay {
  constructor(deps: DispatchDeps, options: { minAgeMs?: number; batch?: number; idleMs?: number } = {}) {
    const idleMs = options.idleMs ?? REDISPATCH_IDLE_MS;
    super(deps.logger, {
      label: 'email event re-dispatch',
      batch: options.batch ?? REDISPATCH_BATCH,
      idleMs,
      retryMs: idleMs,
      find: (limit) => undispatchedEvents(deps.db, options.minAgeMs ?? REDISPATCH_MIN_AGE_MS, limit),
      start: (event) => startEventDelivery(deps, event.account_id, event.id, 'email-event-redispatch'),
    });
  }
}
