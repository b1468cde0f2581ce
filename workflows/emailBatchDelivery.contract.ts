import { defineWorkflow } from './defineWorkflow';
import type { DeliveryRetry } from './emailDelivery.contract';

/** The email batch workflow's contract, shared by the API, the activities and the workflow. No I/O. */

export interface EmailBatchInput {
  accountId: string;
  keyId: string;
  batchId: string;
  /** Messages sent per second: the share of the key's limit of the replica that accepted the batch. */
  perSecond: number;
  /** The UTC day the daily cap was charged on, where the messages that fail are refunded; null without a cap. */
  quotaDay: string | null;
  /** How a message the relay defers is retried (by its own `email-delivery` job). */
  retry: DeliveryRetry;
}

export interface EmailBatchResult {
  batch_id: string;
  total: number;
  sent: number;
  failed: number;
  /** Messages the relay deferred, each handed to its own delivery job for the retries. */
  deferred: number;
}

/** A queued batch sent at the key's rate: `email-batch:<account>:<batchId>`. */
export const emailBatchDeliveryContract = defineWorkflow<[EmailBatchInput], EmailBatchResult>('emailBatchDelivery', 'email-batch');
