import type { SweepInput } from './sweepBudget';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `commerce-delivery-purge` sweep (commerceDeliveryPurge.ts). No I/O. */

export interface DeliveryPurgeInput extends SweepInput {
  /** Records deleted per statement (default 5,000, at most 50,000): short statements keep the table available. */
  batchSize?: number;
}

export interface DeliveryPurgeResult {
  /** True when the budget ran out first; the next day's run finishes. */
  partial: boolean;
  deleted: number;
}

export const commerceDeliveryPurgeContract = defineWorkflow<[DeliveryPurgeInput?], DeliveryPurgeResult>(
  'commerceDeliveryPurge',
  'commerce-delivery-purge',
);
