import { defineSignal } from '@temporalio/workflow';
import { defineWorkflow, withSignals } from './defineWorkflow';
import type { DrainCarry, HandOver } from './outboxDrain.contract';

/** The contract of a shop's entity workflow (commerceShop.ts). No I/O: `src/` imports it. */

export interface CommerceShopInput extends DrainCarry {
  accountId: string;
  connectionId: string;
}

export interface CommerceShopResult {
  /** Deliveries processed by the whole chain of runs. */
  processed: number;
}

/** Deliveries of the shop were recorded and handed over (their payloads stay in `commerce_webhook_deliveries`). */
export const deliveriesSignal = defineSignal<[HandOver]>('deliveries');

export const commerceShopContract = withSignals(
  defineWorkflow<[CommerceShopInput], CommerceShopResult>('commerceShopWorkflow', 'commerce-shop'),
  { deliveries: deliveriesSignal },
);

/** One entity workflow per connected shop: every delivery of that shop goes through it, in arrival order. */
export const commerceShopWorkflowId = (connectionId: string) => `commerce-shop:${connectionId}`;

/** Deliveries one transaction of a pass takes. */
export const DELIVERIES_PER_BATCH = 500;
/** A pass (one activity call) ends at the first batch boundary past this, so the workflow hears of progress often. */
export const SHOP_PASS_BUDGET_MS = 10_000;
/**
 * A pass ends once it logged this many privacy requests: the workflow starts each one's fulfilment (a child workflow,
 * a few history events), so the events one pass adds stay bounded. Requests left are the compliance sweep's.
 */
export const PRIVACY_STARTS_PER_PASS = 50;
