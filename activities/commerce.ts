import { Context } from '@temporalio/activity';
import { drainShopDeliveries, type ShopDrainPass } from '../src/commerce/webhooks/drain';
import { ISOLATE_FROM_ATTEMPT } from '../workflows/outboxDrain.contract';
import type { ActivityDeps } from './deps';
import { whileHeartbeating } from './heartbeat';

export interface ShopDrainInput {
  accountId: string;
  connectionId: string;
  /** Deliveries per transaction. */
  batch: number;
  budgetMs: number;
  maxPrivacyRequests: number;
}

/** Side effects of the shops' entity workflows (workflows/commerceShop.ts). */
export function createCommerceActivities(deps: ActivityDeps) {
  return {
    /** One pass over the shop's handed-over, unprocessed deliveries (src/commerce/webhooks/drain.ts). */
    async drainCommerceDeliveries(input: ShopDrainInput): Promise<ShopDrainPass> {
      const isolate = Context.current().info.attempt >= ISOLATE_FROM_ATTEMPT;
      return whileHeartbeating(() =>
        drainShopDeliveries(
          { db: deps.db, logger: deps.logger, config: deps.config },
          { accountId: input.accountId, connectionId: input.connectionId },
          { batch: input.batch, budgetMs: input.budgetMs, maxPrivacyRequests: input.maxPrivacyRequests, isolate },
        ),
      );
    },
  };
}
