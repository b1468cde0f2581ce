import type { Knex } from '../db/knex';
import type { AttemptContext } from '../webhookKit/attempt';
import { endpointStore, EVENT_COLUMNS } from '../webhookKit/endpointStore';
import type { StoredEvent } from '../webhookKit/event';

export type { DeliveryRow, EndpointRow } from '../webhookKit/endpointStore';

const ENDPOINTS = 'account_webhook_endpoints';
const EVENTS = 'alert_events';
const DELIVERIES = 'account_webhook_deliveries';

/** The endpoint registry's SQL (webhookKit) over the alert tables; a delivery without an endpoint is a job callback. */
export const endpoints = endpointStore<string | null>({ endpoints: ENDPOINTS, deliveries: DELIVERIES, events: EVENTS });

export const { subscribedEndpointIds, endpointIdIfExists, recordAttempt } = endpoints;

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

export function markEventDispatched(db: Knex, id: string): Promise<void> {
  return endpoints.markEventsDispatched(db, [id]);
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
export function claimEvent(
  db: Knex,
  accountId: string,
  eventId: string,
): Promise<(StoredEvent & { callback_url: string | null }) | undefined> {
  return endpoints.claimEvent<{ callback_url: string | null }>(db, accountId, eventId, ['callback_url']);
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
  await endpoints.insertDeliveries(db, accountId, eventId, endpointIds);
  if (withCallback) {
    await db.raw(
      `insert into ${DELIVERIES} (account_id, endpoint_id, event_id) values (?, null, ?)
       on conflict (event_id) where endpoint_id is null do nothing`,
      [accountId, eventId],
    );
  }
  return endpoints.pendingDeliveriesOf(db, accountId, eventId);
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
