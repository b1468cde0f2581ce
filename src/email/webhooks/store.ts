import type { Knex } from '../../db/knex';
import type { AttemptContext } from '../../webhookKit/attempt';
import { endpointStore, EVENT_COLUMNS } from '../../webhookKit/endpointStore';
import type { StoredEvent } from './events';

export type { AttemptContext };
export type { DeliveryRow, EndpointRow } from '../../webhookKit/endpointStore';

const EVENTS = 'email_events';

/** The endpoint registry's SQL (webhookKit) over the email tables. */
export const endpoints = endpointStore({ endpoints: 'email_webhook_endpoints', deliveries: 'email_webhook_deliveries', events: EVENTS });

export const { markEventsDispatched, subscribedEndpointIds, endpointIdIfExists, attemptContext, recordAttempt } = endpoints;

export async function insertEvents(
  db: Knex,
  accountId: string,
  events: Array<{ type: string; data: Record<string, unknown> }>,
): Promise<StoredEvent[]> {
  return db(EVENTS)
    .insert(events.map((e) => ({ account_id: accountId, type: e.type, data: JSON.stringify(e.data) })))
    .returning(EVENT_COLUMNS);
}

// ---- The delivery workflow's reads and writes (run by its activities) ----

/** The event, stamped dispatched (its workflow runs); undefined when it is gone. */
export function claimEvent(db: Knex, accountId: string, eventId: string): Promise<StoredEvent | undefined> {
  return endpoints.claimEvent(db, accountId, eventId);
}

/** One delivery row per endpoint (a re-run adds none twice); answers those still pending, oldest endpoint first. */
export async function pendingDeliveries(
  db: Knex,
  accountId: string,
  eventId: string,
  endpointIds: string[],
): Promise<Array<{ id: string; endpoint_id: string }>> {
  await endpoints.insertDeliveries(db, accountId, eventId, endpointIds);
  return endpoints.pendingDeliveriesOf(db, accountId, eventId);
}

/** Events no workflow took within `minAgeMs` (Temporal was down when they were emitted), oldest first. */
export async function undispatchedEvents(db: Knex, minAgeMs: number, limit: number): Promise<Array<{ id: string; account_id: string }>> {
  return db(EVENTS)
    .whereNull('dispatched_at')
    .where('created_at', '<', db.raw(`now() - make_interval(secs => ?)`, [minAgeMs / 1000]))
    .orderBy('created_at')
    .limit(limit)
    .select('id', 'account_id');
}
