import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import { offsetOf, type Page } from '../../http/pagination';
import type { AttemptContext } from '../../webhookKit/attempt';
import type { StoredEvent } from './events';

export type { AttemptContext };

export interface EndpointRow {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

// The sealed secret is read only where a delivery is signed, never by the API's reads.
const ENDPOINT_COLUMNS = ['id', 'url', 'events', 'description', 'enabled', 'created_at', 'updated_at'];

export async function insertEndpoint(
  db: Knex,
  accountId: string,
  fields: { url: string; events: string[]; description: string | null; secretEnc: string },
): Promise<EndpointRow> {
  const [row] = await db('email_webhook_endpoints')
    .insert({
      account_id: accountId,
      url: fields.url,
      events: fields.events,
      description: fields.description,
      secret_enc: fields.secretEnc,
    })
    .returning(ENDPOINT_COLUMNS);
  return row;
}

export async function listEndpoints(db: Knex, accountId: string, page: Page): Promise<{ rows: EndpointRow[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    db('email_webhook_endpoints')
      .where({ account_id: accountId })
      .select(ENDPOINT_COLUMNS)
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)),
    db('email_webhook_endpoints').where({ account_id: accountId }).count<{ total: string }[]>({ total: '*' }),
  ]);
  return { rows, total: Number(total) };
}

export async function findEndpoint(db: Knex, accountId: string, id: string): Promise<EndpointRow | undefined> {
  return db('email_webhook_endpoints').where({ account_id: accountId, id }).first(ENDPOINT_COLUMNS);
}

export async function updateEndpoint(
  db: Knex,
  accountId: string,
  id: string,
  patch: Partial<Pick<EndpointRow, 'url' | 'events' | 'description' | 'enabled'>>,
): Promise<EndpointRow | undefined> {
  const [row] = await db('email_webhook_endpoints')
    .where({ account_id: accountId, id })
    .update({ ...patch, updated_at: db.fn.now() })
    .returning(ENDPOINT_COLUMNS);
  return row;
}

export async function deleteEndpoint(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db('email_webhook_endpoints').where({ account_id: accountId, id }).delete()) > 0;
}

export async function insertEvents(
  db: Knex,
  accountId: string,
  events: Array<{ type: string; data: Record<string, unknown> }>,
): Promise<StoredEvent[]> {
  return db('email_events')
    .insert(events.map((e) => ({ account_id: accountId, type: e.type, data: JSON.stringify(e.data) })))
    .returning(['id', 'type', 'data', 'created_at']);
}

export async function markEventsDispatched(db: Knex, ids: string[]): Promise<void> {
  if (ids.length > 0) await db('email_events').whereIn('id', ids).whereNull('dispatched_at').update({ dispatched_at: db.fn.now() });
}

export async function listDeliveries(
  db: Knex,
  accountId: string,
  endpointId: string,
  page: Page,
): Promise<{ rows: DeliveryRow[]; total: number }> {
  const scope = { 'd.account_id': accountId, 'd.endpoint_id': endpointId };
  const [rows, [{ total }]] = await Promise.all([
    db('email_webhook_deliveries as d')
      .join('email_events as e', 'e.id', 'd.event_id')
      .where(scope)
      .select(
        'd.id',
        'd.endpoint_id',
        'd.event_id',
        'e.type as event_type',
        'd.status',
        'd.attempts',
        'd.last_status',
        'd.last_error',
        'd.delivered_at',
        'd.created_at',
        'd.updated_at',
      )
      .orderBy([
        { column: 'd.created_at', order: 'desc' },
        { column: 'd.id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)),
    db('email_webhook_deliveries as d').where(scope).count<{ total: string }[]>({ total: '*' }),
  ]);
  return { rows, total: Number(total) };
}

// ---- The delivery workflow's reads and writes (run by its activities) ----

/** The event, stamped dispatched (its workflow runs); undefined when it is gone. */
export async function claimEvent(db: Knex, accountId: string, eventId: string): Promise<StoredEvent | undefined> {
  const [row] = await db('email_events')
    .where({ account_id: accountId, id: eventId })
    .update({ dispatched_at: db.raw('coalesce(dispatched_at, now())') })
    .returning(['id', 'type', 'data', 'created_at']);
  return row;
}

/** Enabled endpoints of the account subscribed to `type`. */
export async function subscribedEndpointIds(db: Knex, accountId: string, type: string): Promise<string[]> {
  const rows: Array<{ id: string }> = await db('email_webhook_endpoints')
    .where({ account_id: accountId, enabled: true })
    .whereRaw('? = any(events)', [type])
    .select('id');
  return rows.map((r) => r.id);
}

export async function endpointIdIfExists(db: Knex, accountId: string, id: unknown): Promise<string[]> {
  if (typeof id !== 'string' || !isUuid(id)) return [];
  const row = await db('email_webhook_endpoints').where({ account_id: accountId, id }).first('id');
  return row ? [row.id] : [];
}

/** One delivery row per endpoint (a re-run adds none twice); answers those still pending, oldest endpoint first. */
export async function pendingDeliveries(
  db: Knex,
  accountId: string,
  eventId: string,
  endpointIds: string[],
): Promise<Array<{ id: string; endpoint_id: string }>> {
  if (endpointIds.length > 0) {
    await db('email_webhook_deliveries')
      .insert(endpointIds.map((endpointId) => ({ account_id: accountId, endpoint_id: endpointId, event_id: eventId })))
      .onConflict(['endpoint_id', 'event_id'])
      .ignore();
  }
  return db('email_webhook_deliveries')
    .where({ account_id: accountId, event_id: eventId, status: 'pending' })
    .select('id', 'endpoint_id')
    .orderBy('created_at');
}

export async function attemptContext(db: Knex, accountId: string, deliveryId: string): Promise<AttemptContext | undefined> {
  const row = await db('email_webhook_deliveries as d')
    .join('email_webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .join('email_events as e', 'e.id', 'd.event_id')
    .where({ 'd.account_id': accountId, 'd.id': deliveryId })
    .first(
      'd.status',
      'd.attempts',
      'w.url',
      'w.enabled',
      'w.secret_enc',
      'e.id as event_id',
      'e.type',
      'e.data',
      'e.created_at as event_created_at',
    );
  if (!row) return undefined;
  return {
    status: row.status,
    attempts: row.attempts,
    url: row.url,
    enabled: row.enabled,
    secret_enc: row.secret_enc,
    event: { id: row.event_id, type: row.type, data: row.data, created_at: row.event_created_at },
  };
}

export async function recordAttempt(
  db: Knex,
  accountId: string,
  deliveryId: string,
  outcome: { status: DeliveryRow['status']; httpStatus: number | null; error: string | null; counted: boolean },
): Promise<number> {
  const [row] = await db('email_webhook_deliveries')
    .where({ account_id: accountId, id: deliveryId })
    .update({
      status: outcome.status,
      attempts: outcome.counted ? db.raw('attempts + 1') : db.raw('attempts'),
      last_status: outcome.httpStatus,
      last_error: outcome.error,
      delivered_at: outcome.status === 'delivered' ? db.fn.now() : null,
      updated_at: db.fn.now(),
    })
    .returning('attempts');
  return row?.attempts ?? 0;
}

/** Events no workflow took within `minAgeMs` (Temporal was down when they were emitted), oldest first. */
export async function undispatchedEvents(db: Knex, minAgeMs: number, limit: number): Promise<Array<{ id: string; account_id: string }>> {
  return db('email_events')
    .whereNull('dispatched_at')
    .where('created_at', '<', db.raw(`now() - make_interval(secs => ?)`, [minAgeMs / 1000]))
    .orderBy('created_at')
    .limit(limit)
    .select('id', 'account_id');
}
