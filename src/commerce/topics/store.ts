import type { Knex } from '../../db/knex';

/**
 * Marks a connection disconnected (app/uninstalled) and its webhook subscriptions inactive. A delivery received
 * before the shop was (re)installed never disconnects the newer installation. Answers whether the connection changed.
 */
export async function disconnectConnection(db: Knex, accountId: string, connectionId: string, receivedAt: Date): Promise<boolean> {
  const changed = await db('commerce_connections')
    .where({ account_id: accountId, id: connectionId })
    .whereNull('disconnected_at')
    .where((q) => q.whereNull('installed_at').orWhere('installed_at', '<=', receivedAt))
    .update({ disconnected_at: db.fn.now(), updated_at: db.fn.now() });
  await db('commerce_webhook_subscriptions')
    .where({ account_id: accountId, connection_id: connectionId, is_active: true })
    .whereExists(db('commerce_connections').where({ account_id: accountId, id: connectionId }).whereNotNull('disconnected_at'))
    .update({ is_active: false, updated_at: db.fn.now() });
  return changed > 0;
}

export async function insertCacheInvalidation(
  db: Knex,
  accountId: string,
  row: { connectionId: string; topic: string; tags: string[]; target: string | null; outcome: string },
): Promise<void> {
  await db('commerce_cache_invalidations').insert({
    account_id: accountId,
    connection_id: row.connectionId,
    topic: row.topic,
    tags: row.tags,
    target: row.target,
    outcome: row.outcome,
  });
}

export interface ComplianceRequestInput {
  connectionId: string;
  topic: string;
  shopDomain: string;
  customerId: string | null;
  customerEmail: string | null;
  payload: unknown;
}

export async function insertComplianceRequest(db: Knex, accountId: string, input: ComplianceRequestInput): Promise<{ id: string }> {
  const [row] = await db('commerce_compliance_requests')
    .insert({
      account_id: accountId,
      connection_id: input.connectionId,
      topic: input.topic,
      shop_domain: input.shopDomain,
      customer_id: input.customerId,
      customer_email: input.customerEmail,
      raw_payload: JSON.stringify(input.payload),
    })
    .returning('id');
  return row;
}
