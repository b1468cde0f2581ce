import { makeContinueAsNewFunc, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import {
  deliveriesSignal,
  DELIVERIES_PER_BATCH,
  PRIVACY_STARTS_PER_PASS,
  SHOP_PASS_BUDGET_MS,
  type CommerceShopInput,
  type CommerceShopResult,
} from './commerceShop.contract';
import { startPrivacyFulfilmentOf } from './commercePrivacyRequest';
import { DRAIN_PASS_OPTIONS, drainOutbox } from './outboxDrain';

const { drainCommerceDeliveries } = proxyActivities<Activities>(DRAIN_PASS_OPTIONS);

/**
 * The entity workflow of one connected shop (`commerce-shop:<connectionId>`). The relay signals (signal-with-start)
 * when it hands deliveries over; each pass processes the shop's oldest unprocessed deliveries from
 * `commerce_webhook_deliveries`, in arrival order and in full batches (the loop: outboxDrain.ts). A privacy request a
 * pass logged has its fulfilment started at once.
 */
export async function commerceShopWorkflow(input: CommerceShopInput): Promise<CommerceShopResult> {
  const shop = { accountId: input.accountId, connectionId: input.connectionId };
  return drainOutbox({
    signal: deliveriesSignal,
    carry: input,
    phase: 'processing',
    pass: () =>
      drainCommerceDeliveries({
        ...shop,
        batch: input.batch ?? DELIVERIES_PER_BATCH,
        budgetMs: input.passBudgetMs ?? SHOP_PASS_BUDGET_MS,
        maxPrivacyRequests: PRIVACY_STARTS_PER_PASS,
      }),
    afterPass: async (result) => {
      for (const requestId of result.privacyRequestIds) await startPrivacyFulfilmentOf(shop, { compliance_request_id: requestId });
    },
    continueAsNew: (carry) =>
      makeContinueAsNewFunc<typeof commerceShopWorkflow>({ typedSearchAttributes: workflowInfo().typedSearchAttributes })({
        ...input,
        ...carry,
      }),
  });
}
