import { defineSignal } from '@temporalio/workflow';

/** Safe to import from the API: only message definitions, no workflow code. */

export const COMMERCE_SHOP_WORKFLOW = 'commerceShopWorkflow';
export const COMMERCE_SHOP_JOB_KIND = 'commerce-shop';

/** One entity workflow per connected shop: every delivery of that shop goes through it, in arrival order. */
export const commerceShopWorkflowId = (connectionId: string) => `commerce-shop:${connectionId}`;

/** A verified, deduplicated webhook delivery, as the receiver hands it over. */
export interface CommerceDelivery {
  webhookId: string;
  topic: string;
  shopDomain: string;
  /** When the receiver accepted it (ISO 8601). */
  receivedAt: string;
  /** Size of the raw body: the workflow keeps the pending deliveries it carries across continue-as-new small. */
  bytes: number;
  /** The verified body, parsed. */
  payload: unknown;
}

export interface CommerceShopInput {
  accountId: string;
  connectionId: string;
  /** Deliveries received but not yet processed when the previous run continued as new. */
  pending?: CommerceDelivery[];
  /** Deliveries processed by earlier runs of the chain (the `progress` query counts across runs). */
  processed?: number;
  /** Continue as new after this many deliveries in one run (default 500); Temporal's suggestion also triggers it. */
  maxDeliveriesPerRun?: number;
}

export const deliverySignal = defineSignal<[CommerceDelivery]>('delivery');
