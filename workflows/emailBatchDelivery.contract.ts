import { defineWorkflow } from './defineWorkflow';

/** The email batch workflow's contract, shared by the API, the activities and the workflow. No I/O. */

export interface EmailBatchInput {
  accountId: string;
  keyId: string;
  batchId: string;
  /** Messages sent per second: the share of the key's limit of the replica that accepted the batch. */
  perSecond: number;
  /** The UTC day the daily cap was charged on, where the messages that fail are refunded; null without a cap. */
  quotaDay: string | null;
}

export interface EmailBatchResult {
  batch_id: string;
  total: number;
  sent: number;
  failed: number;
}

/** A queued batch sent at the key's rate: `email-batch:<account>:<batchId>`. */
export const emailBatchDeliveryContract = defineWorkflow<[EmailBatchInput], EmailBatchResult>('emailBatchDelivery', 'email-batch');

export interface BatchSliceInput {
  accountId: string;
  keyId: string;
  batchId: string;
  ids: string[];
  quotaDay: string | null;
}

export interface BatchSliceOutcome {
  sent: number;
  failed: number;
  /** The `email.sent` / `email.failed` events recorded, whose delivery workflows the batch workflow starts. */
  eventIds: string[];
  /** The key was revoked: the slice failed without sending, and so do the messages after it. */
  keyRevoked: boolean;
}
