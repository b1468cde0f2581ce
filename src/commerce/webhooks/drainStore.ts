import type { Knex } from '../../db/knex';
import { staleHandOvers } from '../../db/outboxStore';
import { parsePlatformJson } from '../../clients/commerce/json';
import type { DeliveryContext } from '../topics/types';

/**
 * The shop's next `limit` recorded deliveries not processed yet, oldest first, with their payloads — whether or not
 * the relay has stamped them handed over: its signal may wake the workflow before its own commit. With `lock` (in a
 * transaction) they stay locked until it ends: a delivery another transaction holds (a racing pass, or the relay
 * stamping it) is waited for and, once a pass has committed its outcome, left out — so a delivery is processed by
 * one transaction only, however many passes race.
 */
export async function nextDeliveries(trx: Knex, accountId: string, connectionId: string, limit: number, lock: boolean) {
  // The seqs first, then their rows by (connection_id, seq): one statement ordering whole rows would be planned by the
  // table's statistics, and stale ones (a backlog that arrived since the last analyze) make it read and sort every
  // unprocessed row of the shop, payloads and all, for each batch.
  const next = await trx('commerce_webhook_deliveries')
    .where({ connection_id: connectionId })
    .whereNull('processed_at')
    .orderBy('seq')
    .limit(limit)
    .pluck('seq');
  if (next.length === 0) return [];
  const query = trx('commerce_webhook_deliveries as d')
    .join('commerce_connections as c', 'c.id', 'd.connection_id')
    .where({ 'd.connection_id': connectionId, 'd.account_id': accountId })
    .whereNull('d.processed_at')
    .where('d.seq', '=', trx.raw('any(?::bigint[])', [next]))
    .orderBy('d.seq')
    // As text: pg's own jsonb parsing would round the platform's 64-bit ids beyond 2^53.
    .select('d.webhook_id', 'd.topic', 'd.received_at', trx.raw('d.payload::text as payload_text'), 'c.shop_domain');
  const rows = await (lock ? query.forUpdate('d') : query);
  return rows.map((r): DeliveryContext => ({
    accountId,
    connectionId,
    shopDomain: r.shop_domain,
    webhookId: r.webhook_id,
    topic: r.topic,
    receivedAt: new Date(r.received_at).toISOString(),
    payload: r.payload_text === null ? null : parsePlatformJson(r.payload_text),
  }));
}

/** Locks one delivery if it is still unprocessed; undefined when it was processed (or purged) meanwhile. */
export async function lockUnprocessed(trx: Knex.Transaction, accountId: string, connectionId: string, webhookId: string) {
  return trx('commerce_webhook_deliveries')
    .where({ account_id: accountId, connection_id: connectionId, webhook_id: webhookId })
    .whereNull('processed_at')
    .forUpdate()
    .first('webhook_id');
}

/** Shops with deliveries handed over before `olderThanMs` ago and still unprocessed, at most `limit`, most stranded first. */
export async function findStaleShops(db: Knex, olderThanMs: number, limit: number) {
  const stale = await staleHandOvers(
    db,
    db('commerce_webhook_deliveries').whereNull('processed_at'),
    ['account_id', 'connection_id'],
    olderThanMs,
    limit,
  );
  return stale.map(({ entity, fromSeq, count }) => ({
    entity: { accountId: entity.account_id, connectionId: entity.connection_id },
    fromSeq,
    count,
  }));
}
