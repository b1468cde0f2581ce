import { EventHandOverRelay } from '../webhookKit/handOverRelay';
import { startAlertDelivery, type DispatchDeps } from './dispatch';
import { undispatchedEvents } from './store';

/** Most events one pass hands over (a full pass is followed at once by the next). */
export const ALERT_RELAY_BATCH = 200;
/** Pause between passes when idle: alerts recorded by activities (job closings, sweeps) wait at most about this. */
export const ALERT_RELAY_IDLE_MS = 2_000;
/** Pause after a pass whose hand-overs failed (Temporal down): the events wait in the table, nothing is lost. */
export const ALERT_RELAY_RETRY_MS = 30_000;

/**
 * Hands alert events to their delivery workflows (`alert-event:<eventId>`): events recorded where no Temporal client
 * is at hand (the job events interceptor's activity, sweeps, inbox items) and those whose start failed. The API
 * process runs it.
 */
export class AlertEventRelay extends EventHandOverRelay {
  constructor(deps: DispatchDeps, options: { minAgeMs?: number; batch?: number; idleMs?: number; retryMs?: number } = {}) {
    super(deps.logger, {
      label: 'alert event',
      batch: options.batch ?? ALERT_RELAY_BATCH,
      idleMs: options.idleMs ?? ALERT_RELAY_IDLE_MS,
      retryMs: options.retryMs ?? ALERT_RELAY_RETRY_MS,
      find: (limit) => undispatchedEvents(deps.db, options.minAgeMs ?? 0, limit),
      start: (event) => startAlertDelivery(deps, event.account_id, event.id, 'alert-relay'),
    });
  }
}
