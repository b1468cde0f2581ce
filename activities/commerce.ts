import { recordDeliveryOutcome, type DeliveryRef } from '../src/commerce/webhooks/outcomes';
import { routeDelivery } from '../src/commerce/topics/router';
import type { DeliveryContext } from '../src/commerce/topics/types';
import type { ActivityDeps } from './index';

export interface DeliverySummary {
  outcome: 'processed' | 'failed' | 'ignored';
  code?: string;
  /** What the handler did (order state, triggers written …), shown in the activity's result in the Temporal UI. */
  detail?: Record<string, unknown>;
}

/** Side effects of the shops' entity workflows: one delivery routed by topic, its outcome recorded. */
export function createCommerceActivities(deps: ActivityDeps) {
  return {
    /** Routes a delivery; a payload the handler rejects is recorded as failed and answered, anything else throws (retried). */
    async processCommerceDelivery(ctx: DeliveryContext): Promise<DeliverySummary> {
      const result = await routeDelivery(deps.db, ctx);
      await recordDeliveryOutcome(deps.db, ctx, result);
      if (result.outcome === 'failed') {
        deps.logger.warn({ connectionId: ctx.connectionId, topic: ctx.topic, webhookId: ctx.webhookId, code: result.code }, 'commerce delivery rejected by its handler');
        return { outcome: 'failed', code: result.code };
      }
      return { outcome: result.outcome, detail: result.detail };
    },

    /** Records a delivery whose handler kept failing after every retry. */
    async recordCommerceDeliveryFailure(ref: DeliveryRef & { code: string }): Promise<void> {
      await recordDeliveryOutcome(deps.db, ref, { outcome: 'failed', code: ref.code, message: 'the handler kept failing after every retry' });
    },
  };
}
