import type { Knex } from '../../db/knex';

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
    connectionId: row.connection_id, accountId: row.account_id, shopDomain: row.shop_domain,
    clientSecret: row.client_secret ?? null, webhookSecretEnc: row.webhook_secret_enc ?? null,
  };
}

export type DeliveryOutcome = 'processed' | 'failed' | 'ignored';

/**
 * Records a verified delivery: insert-or-nothing on (connection_id, webhook_id), the durable dedup. True when this
 * call recorded it; false when it was already recorded (a duplicate, here or on another replica). Inside a
 * transaction, a concurrent duplicate waits for this one to commit or roll back.
 */
export async function recordDelivery(
  db: Knex, accountId: string, delivery: { connectionId: string; webhookId: string; topic: string; outcome?: DeliveryOutcome; errorCode?: string },
): Promise<boolean> {
  const done = delivery.outcome !== undefined;
  const inserted = await db('commerce_webhook_deliveries')
    .insert({
      account_id: accountId, connection_id: delivery.connectionId, webhook_id: delivery.webhookId, topic: delivery.topic,
      outcome: delivery.outcome ?? null, error_code: delivery.errorCode ?? null, processed_at: done ? db.fn.now() : null,
    })
    .onConflict(['connection_id', 'webhook_id']).ignore()
    .returning('webhook_id');
  return inserted.length > 0;
}

export async function markDelivery(
  db: Knex, accountId: string, delivery: { connectionId: string; webhookId: string; outcome: DeliveryOutcome; errorCode: string | null },
): Promise<void> {
  await db('commerce_webhook_deliveries')
    .where({ account_id: accountId, connection_id: delivery.connectionId, webhook_id: delivery.webhookId })
    .update({ outcome: delivery.outcome, error_code: delivery.errorCode, processed_at: db.fn.now() });
}

/** Stamps `last_received_at` on the shop's subscription of this topic (the webhook-health sweep reads it). */
export async function stampLastReceived(db: Knex, accountId: string, connectionId: string, topic: string): Promise<void> {
  await db('commerce_webhook_subscriptions').where({ account_id: accountId, connection_id: connectionId, topic })
    .update({ last_received_at: db.fn.now() });
}

