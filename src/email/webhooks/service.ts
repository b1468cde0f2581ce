import type { Knex } from '../../db/knex';
import type { EmailEventDeliveryInput } from '../../../workflows/emailEventDelivery.contract';
import { committed } from '../../webhookKit/committed';
import { endpointService } from '../../webhookKit/endpointService';
import { dispatchEvents, startEventDelivery, type DispatchDeps } from './dispatch';
import { TEST_EVENT_TYPE, type EmailEventInput } from './events';
import { sealWebhookSecret } from './secretBox';
import * as store from './store';

export type { EmailEventInput, EmailEventType } from './events';
export { EMAIL_EVENT_TYPES } from './events';
// Steps of the delivery and redispatch workflows (activities/emailWebhooks.ts, activities/emailBatches.ts), as stored.
export {
  attemptContext,
  claimEvent,
  endpointIdIfExists,
  insertEvents,
  markEventsDispatched,
  pendingDeliveries,
  recordAttempt,
  subscribedEndpointIds,
  undispatchedEvents,
} from './store';

const registry = endpointService<DispatchDeps>({
  store: store.endpoints,
  sealSecret: sealWebhookSecret,
  testEvent: { type: TEST_EVENT_TYPE, message: 'A test event from Workyard: your endpoint receives signed events.' },
  insertEvent: async (db, accountId, event) => (await store.insertEvents(db, accountId, [event]))[0],
  // A failed start answers 503; the re-dispatch sweep still delivers the recorded event.
  startDelivery: startEventDelivery,
});

/** The endpoint CRUD of the email API (webhookKit's registry over the email tables). */
export const { createEndpoint, listEndpoints, getEndpoint, updateEndpoint, deleteEndpoint, listEndpointDeliveries, sendTestEvent } =
  registry;

export interface EmittedEvents {
  ids: string[];
  /** Settles (never rejects) once every workflow start was tried; tests wait on it, callers need not. */
  dispatched: Promise<void>;
}

/**
 * Records email events (in the caller's transaction when `trx` is given) and, once that commits, starts one
 * delivery workflow per event (`email-event:<eventId>`), best effort: the caller never waits on Temporal, and an
 * event whose workflow could not start is handed over by the re-dispatch sweep within about two minutes.
 */
export function emitEmailEvents(
  deps: DispatchDeps,
  accountId: string,
  events: EmailEventInput[],
  trx?: Knex.Transaction,
): Promise<EmittedEvents> {
  return emitEvents(deps, accountId, events, { trx });
}

/** Starts the delivery workflows of events already recorded and committed, as `emitEmailEvents` does (best effort). */
export function dispatchRecordedEvents(deps: DispatchDeps, accountId: string, ids: string[]): Promise<void> {
  return dispatchEvents(deps, accountId, ids).catch(() => undefined);
}

/** `emitEmailEvents` with the delivery workflow's retry policy overridden (tests use millisecond backoff). */
export async function emitEvents(
  deps: DispatchDeps,
  accountId: string,
  events: EmailEventInput[],
  options: { trx?: Knex.Transaction; retry?: EmailEventDeliveryInput['retry'] } = {},
): Promise<EmittedEvents> {
  if (events.length === 0) return { ids: [], dispatched: Promise.resolve() };
  const stored = await store.insertEvents(options.trx ?? deps.db, accountId, events);
  const ids = stored.map((e) => e.id);
  const ready = options.trx ? committed(options.trx) : Promise.resolve(true);
  const dispatched = ready.then((ok) => (ok ? dispatchEvents(deps, accountId, ids, options.retry) : undefined)).catch(() => undefined);
  return { ids, dispatched };
}
