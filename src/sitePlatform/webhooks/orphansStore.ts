import type { Knex } from '../../db/knex';

/**
 * SQL of the orphan check. A platform site may be shared by several accounts (an agency and its client), so one site's
 * listing can hold registrations of any account's connections: these two reads are deliberately cross-account, keyed by
 * the connection and webhook ids the platform lists. Each row they return carries its `account_id`, and the subscription
 * row of a removed registration is deleted under that account (subscriptionsStore.deleteSubscription).
 */

/** Of these connection ids, those of a live connection (not disconnected, a token held), in any account. */
export async function liveConnectionIds(db: Knex, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows: Array<{ id: string }> = await db('site_platform_connections')
    .whereIn('id', ids)
    .whereNull('disconnected_at')
    .whereNotNull('access_token_enc')
    .select('id');
  return new Set(rows.map((r) => r.id));
}

/** A subscription row whose connection is disconnected: the record of a registration its disconnect could not remove. */
export interface DeadSubscription {
  account_id: string;
  connection_id: string;
  webhook_id: string;
}

/** The subscription rows among these webhook ids whose connection is disconnected, in any account. */
export async function deadSubscriptions(db: Knex, webhookIds: string[]): Promise<DeadSubscription[]> {
  if (webhookIds.length === 0) return [];
  return db('site_platform_webhook_subscriptions as s')
    .join('site_platform_connections as c', (j) => j.on('c.id', 's.connection_id').andOn('c.account_id', 's.account_id'))
    .whereIn('s.webhook_id', webhookIds)
    .where((w) => w.whereNotNull('c.disconnected_at').orWhereNull('c.access_token_enc'))
    .select('s.account_id', 's.connection_id', 's.webhook_id');
}
