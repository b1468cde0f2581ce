import { recordDeliveryOutcome } from '../src/commerce/webhooks/outcomes';
import { loadDeliveries } from '../src/commerce/webhooks/store';
import { routeDelivery } from '../src/commerce/topics/router';
import type { ActivityDeps } from './index';

export interface DeliverySummary {
  webhookId: string;
  outcome: 'processed' | 'failed' | 'ignored';
  code?: string;
  /** What the handler did (order state, triggers written …), shown in the activity's result in the Temporal UI. */
  detail?: Record<string, unknown>;
}

export interface DeliveryBatch {
  accountId: string;
  connectionId: string;
  /** In arrival order. */
  webhookIds: string[];
}

/** Side effects of the shops' entity workflows: recorded deliveries routed by topic, each outcome recorded. */
export function createCommerceActivities(deps: ActivityDeps) {
  /**
   * Loads the deliveries from their records and routes them one after the other, in the order given. A delivery
   * already processed (a re-sent signal, or a retry of this batch after part of it was done) or gone (purged) is
   * skipped; a payload its handler rejects is recorded as failed; anything else throws, and the retry resumes at it.
   */
  async function processDeliveries(batch: DeliveryBatch): Promise<DeliverySummary[]> {
    const stored = await loadDeliveries(deps.db, batch.accountId, batch.connectionId, batch.webhookIds);
    const summaries: DeliverySummary[] = [];
    for (const webhookId of batch.webhookIds) {
      const delivery = stored.get(webhookId);
      if (!delivery || delivery.processed) continue;
      const { processed: _processed, ...about } = delivery;
      const ctx = { accountId: batch.accountId, connectionId: batch.connectionId, ...about };
      const result = await routeDelivery(deps.db, ctx);
      await recordDeliveryOutcome(deps.db, ctx, result);
      if (result.outcome === 'failed') {
        deps.logger.warn({ connectionId: ctx.connectionId, topic: ctx.topic, webhookId, code: result.code }, 'commerce delivery rejected by its handler');
        summaries.push({ webhookId, outcome: 'failed', code: result.code });
      } else {
        summaries.push({ webhookId, outcome: result.outcome, detail: result.detail });
      }
    }
    return summaries;
  }

  return {
    /** Up to DELIVERIES_PER_ACTIVITY deliveries of one shop, in arrival order. */
    processCommerceDeliveries: processDeliveries,

    /** One delivery (the fallback when its batch keeps failing): answers its summary, or none when skipped. */
    async processCommerceDelivery(ref: { accountId: string; connectionId: string; webhookId: string }): Promise<DeliverySummary[]> {
      return processDeliveries({ accountId: ref.accountId, connectionId: ref.connectionId, webhookIds: [ref.webhookId] });
    },

    /** Records a delivery whose handler kept failing after every retry. */
    async recordCommerceDeliveryFailure(ref: { accountId: string; connectionId: string; webhookId: string; code: string }): Promise<void> {
      const delivery = (await loadDeliveries(deps.db, ref.accountId, ref.connectionId, [ref.webhookId])).get(ref.webhookId);
      if (!delivery || delivery.processed) return;
      await recordDeliveryOutcome(deps.db, { ...ref, topic: delivery.topic, shopDomain: delivery.shopDomain }, {
        outcome: 'failed', code: ref.code, message: 'the handler kept failing after every retry',
      });
    },
  };
}
