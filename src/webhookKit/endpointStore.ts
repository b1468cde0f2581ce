import type { Knex } from '../db/knex';
import { isUuid } from '../http/ids';
import { offsetOf, type Page } from '../http/pagination';
import type { AttemptContext, AttemptRecord, DeliveryRowStatus } from './attempt';
import type { StoredEvent } from './event';

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
  /** Null for a delivery without an endpoint (an area's callback URL). */
  endpoint_id: string | null;
  event_id: string;
  event_type: string;
  status: DeliveryRowStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The tables of one area's endpoint registry: endpoints, their deliveries, and the event outbox. */
export interface EndpointTables {
  endpoints: string;
  deliveries: string;
  events: string;
}

// The sealed secret is read only where a delivery is signed, never by the API's reads.
const ENDPOINT_COLUMNS = ['id', 'url', 'events', 'description', 'enabled', 'created_at', 'updated_at'];
export const EVENT_COLUMNS = ['id', 'type', 'data', 'created_at'];

const DELIVERY_COLUMNS = [
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
];

/**
 * The endpoint, delivery and event SQL every area's webhook endpoints share, over that area's tables. `EndpointRef` is
 * what a delivery's `endpoint_id` holds: `string | null` where deliveries without an endpoint exist (callbacks).
 */
export function endpointStore<EndpointRef extends string | null = string>({
  endpoints: ENDPOINTS,
  deliveries: DELIVERIES,
  events: EVENTS,
}: EndpointTables) {
  return {
    async insertEndpoint(
      db: Knex,
      accountId: string,
      fields: { url: string; events: string[]; description: string | null; secretEnc: string },
    ): Promise<EndpointRow> {
      const [row] = await db(ENDPOINTS)
        .insert({
          account_id: accountId,
          url: fields.url,
          events: fields.events,
          description: fields.description,
          secret_enc: fields.secretEnc,
        })
        .returning(ENDPOINT_COLUMNS);
      return row;
    },

    async listEndpoints(db: Knex, accountId: string, page: Page): Promise<{ rows: EndpointRow[]; total: number }> {
      const [rows, [{ total }]] = await Promise.all([
        db(ENDPOINTS)
          .where({ account_id: accountId })
          .select(ENDPOINT_COLUMNS)
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(page.limit)
          .offset(offsetOf(page)),
        db(ENDPOINTS).where({ account_id: accountId }).count<{ total: string }[]>({ total: '*' }),
      ]);
      return { rows, total: Number(total) };
    },

    async findEndpoint(db: Knex, accountId: string, id: string): Promise<EndpointRow | undefined> {
      return db(ENDPOINTS).where({ account_id: accountId, id }).first(ENDPOINT_COLUMNS);
    },

    async updateEndpoint(
      db: Knex,
      accountId: string,
      id: string,
      patch: Partial<Pick<EndpointRow, 'url' | 'events' | 'description' | 'enabled'>>,
    ): Promise<EndpointRow | undefined> {
      const [row] = await db(ENDPOINTS)
        .where({ account_id: accountId, id })
        .update({ ...patch, updated_at: db.fn.now() })
        .returning(ENDPOINT_COLUMNS);
      return row;
    },

    async deleteEndpoint(db: Knex, accountId: string, id: string): Promise<boolean> {
      return (await db(ENDPOINTS).where({ account_id: accountId, id }).delete()) > 0;
    },

    /** Deliveries of one endpoint, or (endpointId null) the account's deliveries without an endpoint, newest first. */
    async listDeliveries(
      db: Knex,
      accountId: string,
      endpointId: string | null,
      page: Page,
    ): Promise<{ rows: DeliveryRow[]; total: number }> {
      const scoped = (q: Knex.QueryBuilder) =>
        endpointId === null
          ? q.where({ 'd.account_id': accountId }).whereNull('d.endpoint_id')
          : q.where({ 'd.account_id': accountId, 'd.endpoint_id': endpointId });
      const [rows, [{ total }]] = await Promise.all([
        scoped(db(`${DELIVERIES} as d`).join(`${EVENTS} as e`, 'e.id', 'd.event_id'))
          .select(DELIVERY_COLUMNS)
          .orderBy([
            { column: 'd.created_at', order: 'desc' },
            { column: 'd.id', order: 'desc' },
          ])
          .limit(page.limit)
          .offset(offsetOf(page)),
        scoped(db(`${DELIVERIES} as d`)).count<{ total: string }[]>({ total: '*' }),
      ]);
      return { rows, total: Number(total) };
    },

    async markEventsDispatched(db: Knex, ids: string[]): Promise<void> {
      if (ids.length > 0) await db(EVENTS).whereIn('id', ids).whereNull('dispatched_at').update({ dispatched_at: db.fn.now() });
    },

    // ---- The delivery workflow's reads and writes (run by its activities) ----

    /** The event with `columns` besides its own, stamped dispatched (its workflow runs); undefined when it is gone. */
    async claimEvent<Extra extends object = object>(
      db: Knex,
      accountId: string,
      eventId: string,
      columns: string[] = [],
    ): Promise<(StoredEvent & Extra) | undefined> {
      const [row] = await db(EVENTS)
        .where({ account_id: accountId, id: eventId })
        .update({ dispatched_at: db.raw('coalesce(dispatched_at, now())') })
        .returning([...EVENT_COLUMNS, ...columns]);
      return row;
    },

    /** Enabled endpoints of the account subscribed to `type`. */
    async subscribedEndpointIds(db: Knex, accountId: string, type: string): Promise<string[]> {
      const rows: Array<{ id: string }> = await db(ENDPOINTS)
        .where({ account_id: accountId, enabled: true })
        .whereRaw('? = any(events)', [type])
        .select('id');
      return rows.map((r) => r.id);
    },

    async endpointIdIfExists(db: Knex, accountId: string, id: unknown): Promise<string[]> {
      if (typeof id !== 'string' || !isUuid(id)) return [];
      const row = await db(ENDPOINTS).where({ account_id: accountId, id }).first('id');
      return row ? [row.id] : [];
    },

    /** One delivery row per endpoint (a re-run adds none twice). */
    async insertDeliveries(db: Knex, accountId: string, eventId: string, endpointIds: string[]): Promise<void> {
      if (endpointIds.length === 0) return;
      await db(DELIVERIES)
        .insert(endpointIds.map((endpointId) => ({ account_id: accountId, endpoint_id: endpointId, event_id: eventId })))
        .onConflict(['endpoint_id', 'event_id'])
        .ignore();
    },

    /** The event's deliveries still pending, oldest first. */
    async pendingDeliveriesOf(db: Knex, accountId: string, eventId: string): Promise<Array<{ id: string; endpoint_id: EndpointRef }>> {
      return db(DELIVERIES)
        .where({ account_id: accountId, event_id: eventId, status: 'pending' })
        .select('id', 'endpoint_id')
        .orderBy('created_at');
    },

    /** The delivery's endpoint and event, for one signed attempt. */
    async attemptContext(db: Knex, accountId: string, deliveryId: string): Promise<AttemptContext | undefined> {
      const row = await db(`${DELIVERIES} as d`)
        .join(`${ENDPOINTS} as w`, 'w.id', 'd.endpoint_id')
        .join(`${EVENTS} as e`, 'e.id', 'd.event_id')
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
    },

    async recordAttempt(db: Knex, accountId: string, deliveryId: string, outcome: AttemptRecord): Promise<number> {
      const [row] = await db(DELIVERIES)
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
    },
  };
}

export type EndpointStore = ReturnType<typeof endpointStore<string | null>>;
