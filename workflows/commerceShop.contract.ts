import { defineSignal } from '@temporalio/workflow';
import { defineWorkflow, withSignals } from './defineWorkflow';

/** The contract of a shop's entity workflow (commerceShop.ts). No I/O: `src/` imports it. */

/**
 * Deliveries the relay hands over, by webhook id in arrival order. Their payloads stay in
 * `commerce_webhook_deliveries` (the activity loads them), so signals and the carried state stay tiny.
 */
export interface DeliveriesSignal {
  webhookIds: string[];
}

export interface CommerceShopInput {
  accountId: string;
  connectionId: string;
  /** Webhook ids received but not yet processed when the previous run continued as new. */
  pending?: string[];
  /** Webhook ids processed lately (a re-sent signal names them again: they are ignored). */
  recent?: string[];
  /** Deliveries processed by earlier runs of the chain (the `progress` query counts across runs). */
  processed?: number;
  /** Continue as new after this many deliveries in one run (default 2000); Temporal's suggestion also triggers it. */
  maxDeliveriesPerRun?: number;
}

export interface CommerceShopResult {
  /** Deliveries processed by the whole chain of runs. */
  processed: number;
}

export const deliveriesSignal = defineSignal<[DeliveriesSignal]>('deliveries');

export const commerceShopContract = withSignals(
  defineWorkflow<[CommerceShopInput], CommerceShopResult>('commerceShopWorkflow', 'commerce-shop'),
  { deliveries: deliveriesSignal },
);

/** One entity workflow per connected shop: every delivery of that shop goes through it, in arrival order. */
export const commerceShopWorkflowId = (connectionId: string) => `commerce-shop:${connectionId}`;
