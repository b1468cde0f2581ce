import type { Knex } from '../db/knex';
import { isUuid } from '../http/ids';
import { offsetOf, type Page } from '../http/pagination';
import type { AttemptContext, AttemptRecord } from '../webhookKit/attempt';
import type { StoredEvent } from '../webhookKit/event';

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
  endpoint_id: string | null;
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

const ENDPOINTS = 'account_webhook_endpoints';
const EVENTS = 'alert_events';
const DELIVERIES = 'account_webhook_deliveries';
// The sealed secret is read only where a delivery is signed, never by the API's reads.
const ENDPOINT_COLUMNS = ['id', 'url', 'events', 'description', 'enabled', 'created_at', 'updated_at'];
const EVENT_COLUMNS = ['id', 'type', 'data', 'created_at'];

export async function insertEndpoint(
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
}

export async function listEndpoints(db: Knex, accountId: string, page: Page): Promise<{ rows: EndpointRow[]; total: number }> {
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
}

export async function findEndpoint(db: Knex, accountId: string, id: string): Promise<EndpointRow | undefined> {
  return db(ENDPOINTS).where({ account_id: accountId, id }).first(ENDPOINT_COLUMNS);
}

export async function updateEndpoint(
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
}

export async function deleteEndpoint(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(ENDPOINTS).where({ account_id: accountId, id }).delete()) > 0;
}

/** Whether an enabled endpoint of the account takes `type` (events nobody receives are not recorded). */
export async function hasSubscriber(db: Knex, accountId: string, type: string): Promise<boolean> {
  const row = await db(ENDPOINTS).where({ account_id: accountId, enabled: true }).whereRaw('? = any(events)', [type]).first('id');
  return Boolean(row);
}

export async function accountExists(db: Knex, accountId: string): Promise<boolean> {
  return Boolean(await db('accounts').where({ id: accountId }).first('id'));
}

/** Records an event; with a `sourceKey`, once per account, type and key (a repeat answers the stored event). */
export async function insertEvent(
  db: Knex,
  accountId: string,
  event: { type: string; data: Record<string, unknown>; callbackUrl?: string | null; sourceKey?: string | null },
): Promise<StoredEvent> {
  const row = {
    account_id: accountId,
    type: event.type,
    data: JSON.stringify(event.data),
    callback_url: event.callbackUrl ?? null,
    source_key: event.sourceKey ?? null,
  };
  if (!event.sourceKey) return (await db(EVENTS).insert(row).returning(EVENT_COLUMNS))[0];
  const result = await db.raw(
    `insert into ${EVENTS} (account_id, type, data, callback_url, source_key) values (?, ?, ?::jsonb, ?, ?)
     on conflict (account_id, type, source_key) where source_key is not null do nothing
     returning ${EVENT_COLUMNS.join(', ')}`,
    [row.account_id, row.type, row.data, row.callback_url, row.source_key],
  );
  if (result.rows[0]) return result.rows[0];
  return db(EVENTS).where({ account_id: accountId, type: event.type, source_key: event.sourceKey }).first(EVENT_COLUMNS);
}

export async function markEventDispatched(db: Knex, id: string): Promise<void> {
  await db(EVENTS).where({ id }).whereNull('dispatched_at').update({ dispatched_at: db.fn.now() });
}

/** Events no workflow took within `minAgeMs` (recorded by an activity, or Temporal was down), oldest first. */
export async function undispatchedEvents(db: Knex, minAgeMs: number, limit: number): Promise<Array<{ id: string; account_id: string }>> {
  return db(EVENTS)
    .whereNull('dispatched_at')
    .where('created_at', '<=', db.raw(`now() - make_interval(secs => ?)`, [minAgeMs / 1000]))
    .orderBy('created_at')
    .limit(limit)
    .select('id', 'account_id');
}

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

/** Deliveries of one endpoint, or (endpointId null) the account's job callbacks, newest first. */
export async function listDeliveries(
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
}

// ---- The account's callback secret ----

export async function callbackSecret(db: Knex, accountId: string): Promise<string | undefined> {
  const row = await db('account_callback_secrets').where({ account_id: accountId }).first('secret_enc');
  return row?.secret_enc;
}

/** Sets the account's callback secret (a rotation replaces it). */
export async function putCallbackSecret(db: Knex, accountId: string, secretEnc: string): Promise<void> {
  await db('account_callback_secrets')
    .insert({ account_id: accountId, secret_enc: secretEnc })
    .onConflict('account_id')
    .merge({ secret_enc: secretEnc, updated_at: db.fn.now() });
}

/** Keeps the account's secret when one exists (a concurrent first use); answers the one stored. */
export async function ensureCallbackSecret(db: Knex, accountId: string, secretEnc: string): Promise<string> {
  await db('account_callback_secrets').insert({ account_id: accountId, secret_enc: secretEnc }).onConflict('account_id').ignore();
  return (await callbackSecret(db, accountId))!;
}

// ---- The delivery workflow's reads and writes (run by its activities) ----

/** The event, stamped dispatched (its workflow runs), with its callback URL; undefined when it is gone. */
export async function claimEvent(
  db: Knex,
  accountId: string,
  eventId: string,
): Promise<(StoredEvent & { callback_url: string | null }) | undefined> {
  const [row] = await db(EVENTS)
    .where({ account_id: accountId, id: eventId })
    .update({ dispatched_at: db.raw('coalesce(dispatched_at, now())') })
    .returning([...EVENT_COLUMNS, 'callback_url']);
  return row;
}

/** Enabled endpoints of the account subscribed to `type`. */
export async function subscribedEndpointIds(db: Knex, accountId: string, type: string): Promise<string[]> {
  const rows: Array<{ id: string }> = await db(ENDPOINTS)
    .where({ account_id: accountId, enabled: true })
    .whereRaw('? = any(events)', [type])
    .select('id');
  return rows.map((r) => r.id);
}

export async function endpointIdIfExists(db: Knex, accountId: string, id: unknown): Promise<string[]> {
  if (typeof id !== 'string' || !isUuid(id)) return [];
  const row = await db(ENDPOINTS).where({ account_id: accountId, id }).first('id');
  return row ? [row.id] : [];
}

/**
 * One delivery row per endpoint, and one for the callback when `withCallback` (a re-run adds none twice); answers
 * those still pending, oldest first.
 */
export async function pendingDeliveries(
  db: Knex,
  accountId: string,
  eventId: string,
  endpointIds: string[],
  withCallback: boolean,
): Promise<Array<{ id: string; endpoint_id: string | null }>> {
  if (endpointIds.length > 0) {
    await db(DELIVERIES)
      .insert(endpointIds.map((endpointId) => ({ account_id: accountId, endpoint_id: endpointId, event_id: eventId })))
      .onConflict(['endpoint_id', 'event_id'])
      .ignore();
  }
  if (withCallback) {
    await db.raw(
      `insert into ${DELIVERIES} (account_id, endpoint_id, event_id) values (?, null, ?)
       on conflict (event_id) where endpoint_id is null do nothing`,
      [accountId, eventId],
    );
  }
  return db(DELIVERIES)
    .where({ account_id: accountId, event_id: eventId, status: 'pending' })
    .select('id', 'endpoint_id')
    .orderBy('created_at');
}

/** The delivery's target: its endpoint, or (no endpoint) the event's callback URL signed with the account's callback secret. */
export async function attemptContext(db: Knex, accountId: string, deliveryId: string): Promise<AttemptContext | undefined> {
  const row = await db(`${DELIVERIES} as d`)
    .join(`${EVENTS} as e`, 'e.id', 'd.event_id')
    .leftJoin(`${ENDPOINTS} as w`, 'w.id', 'd.endpoint_id')
    .leftJoin('account_callback_secrets as c', 'c.account_id', 'd.account_id')
    .where({ 'd.account_id': accountId, 'd.id': deliveryId })
    .first(
      'd.status',
      'd.attempts',
      'd.endpoint_id',
      'w.url',
      'w.enabled',
      'w.secret_enc',
      'e.callback_url',
      'c.secret_enc as callback_secret_enc',
      'e.id as event_id',
      'e.type',
      'e.data',
      'e.created_at as event_created_at',
    );
  if (!row) return undefined;
  const callback = row.endpoint_id === null;
  if (callback && (!row.callback_url || !row.callback_secret_enc)) return undefined;
  return {
    status: row.status,
    attempts: row.attempts,
    url: callback ? row.callback_url : row.url,
    enabled: callback ? true : row.enabled,
    secret_enc: callback ? row.callback_secret_enc : row.secret_enc,
    event: { id: row.event_id, type: row.type, data: row.data, created_at: row.event_created_at },
  };
}

export async function recordAttempt(db: Knex, accountId: string, deliveryId: string, outcome: AttemptRecord): Promise<number> {
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
}
