import type { Knex } from '../../db/knex';
import { preparedRows } from '../../db/prepared';

/** What the receiver needs to verify and route a delivery of one shop. */
export interface WebhookTarget {
  connectionId: string;
  accountId: string;
  shopDomain: string;
  /** The account's app client_secret (plaintext on purpose, doc3); null when the account has no app registration. */
  clientSecret: string | null;
  webhookSecretEnc: string | null;
}

/**
 * The connection of a shop domain with its account's commerce app — the one lookup that precedes knowing the
 * account, so it is keyed by the globally unique shop domain alone. Shop domains are stored lower-case.
 */
export async function findWebhookTarget(db: Knex, shopDomain: string): Promise<WebhookTarget | undefined> {
  const row = await db('commerce_connections as c')
    .leftJoin('app_registrations as a', function joinApp() {
      this.on('a.account_id', '=', 'c.account_id').andOn('a.provider', '=', db.raw('?', ['commerce']));
    })
    .where('c.shop_domain', shopDomain)
    .first('c.id as connection_id', 'c.account_id', 'c.shop_domain', 'c.webhook_secret_enc', 'a.client_secret');
  if (!row) return undefined;
  return {
    connectionId: row.connection_id,
    accountId: row.account_id,
    shopDomain: row.shop_domain,
    clientSecret: row.client_secret ?? null,
    webhookSecretEnc: row.webhook_secret_enc ?? null,
  };
}

export type DeliveryOutcome = 'processed' | 'failed' | 'ignored';

/** A verified delivery as the receiver records it for the relay: its body's JSON text rides along. */
export interface NewDelivery {
  accountId: string;
  connectionId: string;
  webhookId: string;
  topic: string;
  /** The verified body, stored as jsonb until the workflow has processed the delivery (Postgres refuses it if not JSON). */
  payloadJson: string;
}

/**
 * Records many deliveries in ONE statement — the group commit: insert-or-nothing on (connection_id, webhook_id),
 * the durable dedup, in the order given (`seq` follows it). Answers the keys `connectionId:webhookId` this
 * statement inserted; the others were recorded already (duplicates, here or on another replica). The caller
 * passes distinct keys.
 */
export async function insertDeliveries(db: Knex, deliveries: NewDelivery[]): Promise<Set<string>> {
  if (deliveries.length === 0) return new Set();
  const values: string[] = [];
  for (const d of deliveries) values.push(d.accountId, d.connectionId, d.webhookId, d.topic, d.payloadJson);
  // Straight on a pooled connection: this runs for every batch of the hot path, and the query builder's binding
  // rewrites cost more than the statement's own round trip at these sizes.
  const rows = await preparedRows<{ connection_id: string; webhook_id: string }>(
    db,
    `commerce_deliveries_insert_${deliveries.length}`,
    insertSqlOf(deliveries.length),
    values,
  );
  return new Set(rows.map((r) => `${r.connection_id}:${r.webhook_id}`));
}

const insertSql = new Map<number, string>();

/**
 * The group commit's statement for `rows` deliveries: fixed text per row count, so it runs as a named prepared
 * statement (parsed once per connection and row count). The body goes in as text; Postgres parses it into the jsonb
 * column.
 */
function insertSqlOf(rows: number): string {
  let sql = insertSql.get(rows);
  if (!sql) {
    const tuples = Array.from({ length: rows }, (_, i) => `($${5 * i + 1}, $${5 * i + 2}, $${5 * i + 3}, $${5 * i + 4}, $${5 * i + 5})`);
    sql = `insert into commerce_webhook_deliveries (account_id, connection_id, webhook_id, topic, payload) values ${tuples.join(
      ', ',
    )} on conflict (connection_id, webhook_id) do nothing returning connection_id, webhook_id`;
    insertSql.set(rows, sql);
  }
  return sql;
}

/**
 * Records a delivery that needs no hand-over (already finished, e.g. a body that is not JSON): insert-or-nothing,
 * stamped processed and dispatched. True when this call recorded it.
 */
export async function recordFinishedDelivery(
  db: Knex,
  accountId: string,
  delivery: { connectionId: string; webhookId: string; topic: string; outcome: DeliveryOutcome; errorCode: string | null },
): Promise<boolean> {
  const inserted = await db('commerce_webhook_deliveries')
    .insert({
      account_id: accountId,
      connection_id: delivery.connectionId,
      webhook_id: delivery.webhookId,
      topic: delivery.topic,
      outcome: delivery.outcome,
      error_code: delivery.errorCode,
      processed_at: db.fn.now(),
      dispatched_at: db.fn.now(),
    })
    .onConflict(['connection_id', 'webhook_id'])
    .ignore()
    .returning('webhook_id');
  return inserted.length > 0;
}

/**
 * Writes a delivery's outcome; its payload is dropped then (the order log keeps what the handler kept). A delivery
 * processed before the relay handed it over counts as handed over: the relay has nothing left to do for it.
 */
export async function markDelivery(
  db: Knex,
  accountId: string,
  delivery: { connectionId: string; webhookId: string; outcome: DeliveryOutcome; errorCode: string | null },
): Promise<void> {
  await db('commerce_webhook_deliveries')
    .where({ account_id: accountId, connection_id: delivery.connectionId, webhook_id: delivery.webhookId })
    .update({
      outcome: delivery.outcome,
      error_code: delivery.errorCode,
      processed_at: db.fn.now(),
      payload: null,
      dispatched_at: db.raw('coalesce(dispatched_at, now())'),
    });
}

/** `markDelivery` for many deliveries of one shop in ONE statement. */
export async function markDeliveries(
  db: Knex,
  accountId: string,
  connectionId: string,
  deliveries: Array<{ webhookId: string; outcome: DeliveryOutcome; errorCode: string | null }>,
): Promise<void> {
  if (deliveries.length === 0) return;
  const ids = deliveries.map((d) => d.webhookId);
  // The rows are found by the primary key (`= any`), each one's values by its place in the arrays: a join with
  // `unnest` would be planned by the table's statistics, and stale ones (a backlog that arrived since the last
  // analyze) make it a nested loop over every row of the shop for every delivery.
  await db.raw(
    `update commerce_webhook_deliveries d
        set outcome = (?::text[])[array_position(?::text[], d.webhook_id)],
            error_code = (?::text[])[array_position(?::text[], d.webhook_id)],
            processed_at = now(), payload = null, dispatched_at = coalesce(d.dispatched_at, now())
      where d.account_id = ? and d.connection_id = ? and d.webhook_id = any(?::text[])`,
    [
      deliveries.map((d) => d.outcome),
      ids,
      /* pg sends nulls inside arrays; knex's types do not say so */ deliveries.map((d) => d.errorCode) as string[],
      ids,
      accountId,
      connectionId,
      ids,
    ],
  );
}

/** An undispatched delivery the relay claimed. */
export interface ClaimedDelivery {
  seq: number;
  accountId: string;
  connectionId: string;
}

/**
 * Claims up to `limit` undispatched deliveries in arrival order, locked until the transaction ends; rows another
 * relay holds are skipped, so replicas share the work and a crashed relay's rows are claimed again.
 */
export async function claimUndispatched(trx: Knex.Transaction, limit: number): Promise<ClaimedDelivery[]> {
  const rows = await trx('commerce_webhook_deliveries')
    .whereNull('dispatched_at')
    .orderBy('seq')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select('seq', 'account_id', 'connection_id');
  return rows.map((r) => ({ seq: Number(r.seq), accountId: r.account_id, connectionId: r.connection_id }));
}

export async function markDispatched(trx: Knex.Transaction, seqs: number[]): Promise<void> {
  if (seqs.length) await trx('commerce_webhook_deliveries').whereIn('seq', seqs).update({ dispatched_at: trx.fn.now() });
}

/** Stamps `last_received_at` on the shop's subscription of this topic (the webhook-health sweep reads it). */
export async function stampLastReceived(db: Knex, accountId: string, connectionId: string, topic: string): Promise<void> {
  await db('commerce_webhook_subscriptions')
    .where({ account_id: accountId, connection_id: connectionId, topic })
    .update({ last_received_at: db.fn.now() });
}
