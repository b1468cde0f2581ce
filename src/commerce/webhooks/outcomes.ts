import type { Knex } from '../../db/knex';
import { raiseInboxItem } from '../../inbox/service';
import type { HandlerOutcome } from '../topics/types';
import { markDelivery } from './store';

export interface DeliveryRef {
  accountId: string;
  connectionId: string;
  shopDomain: string;
  webhookId: string;
  topic: string;
}

/**
 * Writes what a delivery's handler did onto its delivery record. A failure — already answered 200, as doc3
 * demands — also raises an inbox item, one open item per shop and topic, so it never fails silently.
 */
export async function recordDeliveryOutcome(db: Knex, ref: DeliveryRef, outcome: HandlerOutcome): Promise<void> {
  await db.transaction(async (trx) => {
    await markDelivery(trx, ref.accountId, {
      connectionId: ref.connectionId, webhookId: ref.webhookId, outcome: outcome.outcome, errorCode: outcome.outcome === 'failed' ? outcome.code : null,
    });
    if (outcome.outcome !== 'failed') return;
    await raiseInboxItem(trx, ref.accountId, {
      kind: 'commerce_webhook_failed',
      urgency: 'normal',
      dedupKey: `commerce:webhook-failed:${ref.connectionId}:${ref.topic}`,
      title: `A ${ref.topic} webhook from ${ref.shopDomain} could not be handled`,
      body: { connection_id: ref.connectionId, shop_domain: ref.shopDomain, topic: ref.topic, webhook_id: ref.webhookId, error_code: outcome.code, error_message: outcome.message },
    });
  });
}
