import type { Knex } from '../../db/knex';
import { raiseInboxItem } from '../../inbox/service';
import type { HandlerOutcome } from '../topics/types';
import { markDeliveries, markDelivery } from './store';

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
      connectionId: ref.connectionId,
      webhookId: ref.webhookId,
      outcome: outcome.outcome,
      errorCode: outcome.outcome === 'failed' ? outcome.code : null,
    });
    if (outcome.outcome !== 'failed') return;
    await raiseInboxItem(trx, ref.accountId, {
      kind: 'commerce_webhook_failed',
      urgency: 'normal',
      dedupKey: `commerce:webhook-failed:${ref.connectionId}:${ref.topic}`,
      title: `A ${ref.topic} webhook from ${ref.shopDomain} could not be handled`,
      body: {
        connection_id: ref.connectionId,
        shop_domain: ref.shopDomain,
        topic: ref.topic,
        webhook_id: ref.webhookId,
        error_code: outcome.code,
        error_message: outcome.message,
      },
    });
  });
}

/**
 * `recordDeliveryOutcome` for several deliveries of one shop: the processed and ignored ones marked in one
 * statement, each failed one recorded (with its inbox item) as a single delivery is.
 */
export async function recordDeliveryOutcomes(db: Knex, items: Array<{ ref: DeliveryRef; outcome: HandlerOutcome }>): Promise<void> {
  const done = items.filter((i) => i.outcome.outcome !== 'failed');
  if (done.length > 0) {
    const [{ ref }] = done;
    await markDeliveries(
      db,
      ref.accountId,
      ref.connectionId,
      done.map((i) => ({ webhookId: i.ref.webhookId, outcome: i.outcome.outcome, errorCode: null })),
    );
  }
  for (const item of items) if (item.outcome.outcome === 'failed') await recordDeliveryOutcome(db, item.ref, item.outcome);
}
