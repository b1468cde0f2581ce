import { randomUUID } from 'node:crypto';
import type { Knex } from '../../db/knex';
import { staleHandOvers } from '../../db/outboxStore';

/** Inbound event verification modes (the table's check). */
export type Verification = 'hmac' | 'url_token' | 'failed';

/** What the receiver needs to check a delivery of one connection, read in one query. */
export interface ReceiverTarget {
  connectionId: string;
  accountId: string;
  authKind: 'oauth' | 'site_token';
  disconnected: boolean;
  /** Hex SHA-256 of the connection's URL token; null until webhooks were registered. */
  tokenHash: string | null;
  /** The account's OAuth client the connection names (its sealed secret), or null: the service-wide client. */
  oauthAppId: string | null;
  clientSecretEnc: string | null;
  /** The platform sites the connection's grant reaches (`site_platform_connection_sites`). */
  siteIds: string[];
}

/**
 * The connection a receiver URL names, with its OAuth client's sealed secret and the sites it reaches. The one
 * lookup that precedes knowing the account, so it is keyed by the globally unique connection id alone; every
 * later query filters on the account it answers.
 */
export async function findReceiverTarget(db: Knex, connectionId: string): Promise<ReceiverTarget | undefined> {
  const { rows } = await db.raw(
    `select c.id, c.account_id, c.auth_kind, c.disconnected_at is not null as disconnected, c.webhook_url_token_hash,
            c.oauth_app_id, o.client_secret_enc,
            coalesce((select array_agg(cs.site_id order by cs.site_id) from site_platform_connection_sites cs
                       where cs.connection_id = c.id and cs.account_id = c.account_id), '{}') as site_ids
       from site_platform_connections c
       left join site_platform_oauth_clients o on o.id = c.oauth_app_id and o.account_id = c.account_id
      where c.id = ?`,
    [connectionId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    connectionId: row.id,
    accountId: row.account_id,
    authKind: row.auth_kind,
    disconnected: row.disconnected,
    tokenHash: row.webhook_url_token_hash ?? null,
    oauthAppId: row.oauth_app_id ?? null,
    clientSecretEnc: row.client_secret_enc ?? null,
    siteIds: row.site_ids,
  };
}

/**
 * Records an unverified delivery (bounded payload, no site) unless the connection already has `limit` of them in the
 * last hour. Race-safe: the count and the insert run under a transaction-scoped advisory lock per connection, so
 * concurrent refusals cannot both take the last slot. Answers whether a row was written.
 */
export async function recordUnverified(
  db: Knex,
  accountId: string,
  connectionId: string,
  payload: Record<string, unknown>,
  limit: number,
): Promise<boolean> {
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`site_platform_unverified:${connectionId}`]);
    const [{ count }] = await trx('site_platform_inbound_events')
      .where({ account_id: accountId, connection_id: connectionId, verified: false })
      .andWhere('received_at', '>', trx.raw(`now() - interval '1 hour'`))
      .count<{ count: string }[]>({ count: '*' });
    if (Number(count) >= limit) return false;
    await trx('site_platform_inbound_events').insert({
      account_id: accountId,
      connection_id: connectionId,
      site_id: null,
      event_id: `unverified:${randomUUID()}`,
      trigger_type: null,
      payload: JSON.stringify(payload),
      verified: false,
      verification: 'failed',
    });
    return true;
  });
}

/** A verified delivery as the receiver records it for the relay. */
export interface NewEvent {
  accountId: string;
  connectionId: string;
  siteId: string;
  eventId: string;
  triggerType: string;
  /** The envelope's `payload` object as JSON text (stored as jsonb). */
  payloadJson: string;
  verification: Exclude<Verification, 'failed'>;
}

export const eventKeyOf = (e: { accountId: string; siteId: string; eventId: string }) => `${e.accountId}:${e.siteId}:${e.eventId}`;

const rowOf = (e: NewEvent) => ({
  account_id: e.accountId,
  connection_id: e.connectionId,
  site_id: e.siteId,
  event_id: e.eventId,
  trigger_type: e.triggerType,
  payload: e.payloadJson,
  verified: true,
  verification: e.verification,
});

/**
 * Records many events in ONE statement — the group commit: insert-or-nothing on (account, site, event id), the
 * durable dedup. Answers the keys (`eventKeyOf`) this statement inserted; the others were recorded before.
 */
export async function insertEvents(db: Knex, events: NewEvent[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const inserted: Array<{ account_id: string; site_id: string; event_id: string }> = await db('site_platform_inbound_events')
    .insert(events.map(rowOf))
    .onConflict(['account_id', 'site_id', 'event_id'])
    .ignore()
    .returning(['account_id', 'site_id', 'event_id']);
  return new Set(inserted.map((r) => eventKeyOf({ accountId: r.account_id, siteId: r.site_id, eventId: r.event_id })));
}

/** One event, insert-or-nothing (inside the caller's transaction); answers whether it was new. */
export async function insertEventOnce(db: Knex, event: NewEvent): Promise<boolean> {
  return (await insertEvents(db, [event])).size > 0;
}

/** Stamps `last_received_at` on the connection's subscriptions of this site and trigger (the webhook-health sweep reads it). */
export async function stampLastReceived(
  db: Knex,
  accountId: string,
  connectionId: string,
  siteId: string,
  triggerType: string,
): Promise<void> {
  await db('site_platform_webhook_subscriptions')
    .where({ account_id: accountId, connection_id: connectionId, site_id: siteId, trigger_type: triggerType })
    .update({ last_received_at: db.fn.now() });
}

/** An undispatched verified event the relay claimed. */
export interface ClaimedEvent {
  seq: number;
  accountId: string;
  siteId: string;
  connectionId: string | null;
}

/**
 * Claims up to `limit` undispatched verified events in arrival order, locked until the transaction ends; rows another
 * relay holds are skipped, so replicas share the work and a crashed relay's rows are claimed again.
 */
export async function claimUndispatched(trx: Knex.Transaction, limit: number): Promise<ClaimedEvent[]> {
  const rows = await trx('site_platform_inbound_events')
    .whereNull('dispatched_at')
    .andWhere('verified', true)
    .orderBy('seq')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('seq', 'account_id', 'site_id', 'connection_id');
  return rows.map((r) => ({ seq: Number(r.seq), accountId: r.account_id, siteId: r.site_id, connectionId: r.connection_id }));
}

export async function markDispatched(trx: Knex.Transaction, seqs: number[]): Promise<void> {
  if (seqs.length) await trx('site_platform_inbound_events').whereIn('seq', seqs).update({ dispatched_at: trx.fn.now() });
}

/** A recorded event as the fan-out works it. */
export interface StoredEvent {
  seq: number;
  connectionId: string | null;
  siteId: string;
  eventId: string;
  triggerType: string;
  payload: Record<string, unknown>;
}

/**
 * The (account, site)'s next `limit` events to fan out: verified and not fanned out yet, in seq order (the partial
 * index `site_platform_inbound_events_unfanned` holds just those), whether or not the relay has stamped them handed
 * over: its signal may wake the workflow before its own commit.
 */
export async function nextEvents(db: Knex, accountId: string, siteId: string, limit: number): Promise<StoredEvent[]> {
  // The seqs first, then their rows by primary key: one statement ordering whole rows would be planned by the table's
  // statistics, and stale ones (a burst since the last analyze) make it read and sort every waiting event, payloads
  // and all, for each batch.
  const seqs = await db('site_platform_inbound_events')
    .where({ account_id: accountId, site_id: siteId, verified: true })
    .whereNull('fanned_out_at')
    .orderBy('seq')
    .limit(limit)
    .pluck('seq');
  if (seqs.length === 0) return [];
  const rows = await db('site_platform_inbound_events')
    .where({ account_id: accountId, site_id: siteId })
    .whereIn('seq', seqs)
    .orderBy('seq')
    .select('seq', 'connection_id', 'site_id', 'event_id', 'trigger_type', 'payload');
  return rows.map((r) => ({
    seq: Number(r.seq),
    connectionId: r.connection_id,
    siteId: r.site_id,
    eventId: r.event_id,
    triggerType: r.trigger_type,
    payload: r.payload,
  }));
}

/** Sites with verified events handed over before `olderThanMs` ago and not fanned out yet, at most `limit`, most stranded first. */
export async function findStaleSites(db: Knex, olderThanMs: number, limit: number) {
  const stale = await staleHandOvers(
    db,
    db('site_platform_inbound_events').where('verified', true).whereNull('fanned_out_at'),
    ['account_id', 'site_id'],
    olderThanMs,
    limit,
  );
  return stale.map(({ entity, fromSeq, count }) => ({ entity: { accountId: entity.account_id, siteId: entity.site_id }, fromSeq, count }));
}

/**
 * Stamps events of the account fanned out, each with what its fan-out did, in ONE statement (an event stamped already
 * keeps its stamp; one fanned out before the relay handed it over counts as handed over).
 */
export async function markFannedOut(
  db: Knex,
  accountId: string,
  done: Array<{ seq: number; fanOut: Record<string, unknown> }>,
): Promise<void> {
  if (done.length === 0) return;
  const seqs = done.map((d) => d.seq);
  // By the primary key (`= any`), each row's record by its place in the arrays: a join with `unnest` would be planned
  // by the table's statistics, and stale ones make it a nested loop over the account's events for every event.
  await db.raw(
    `update site_platform_inbound_events e
        set fanned_out_at = now(), fan_out = (?::jsonb[])[array_position(?::bigint[], e.seq)],
            dispatched_at = coalesce(e.dispatched_at, now())
      where e.seq = any(?::bigint[]) and e.account_id = ? and e.fanned_out_at is null`,
    [done.map((d) => JSON.stringify(d.fanOut)), seqs, seqs, accountId],
  );
}
