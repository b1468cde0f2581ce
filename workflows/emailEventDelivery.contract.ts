import { defineWorkflow } from './defineWorkflow';
import type { DeliveryRetryPolicy, DeliveryStatus } from './webhookRetryPolicy';

/**
 * The email event delivery workflow's contract, shared by the API, the activities and the workflows: ids, inputs
 * and the retry policy. No I/O, so both the workflow bundle and `src/` import it.
 */

export {
  DEFAULT_DELIVERY_RETRY,
  type AttemptInput,
  type AttemptOutcome,
  type DeliveryRetryPolicy,
  type DeliveryStatus,
  type PreparedDelivery,
} from './webhookRetryPolicy';

export interface EmailEventDeliveryInput {
  accountId: string;
  eventId: string;
  /** Tests shorten the backoff to milliseconds; production runs use the default. */
  retry?: Partial<DeliveryRetryPolicy>;
}

export interface EmailEventDeliveryResult {
  event_id: string;
  deliveries: Array<{ delivery_id: string; endpoint_id: string; status: DeliveryStatus | 'gone'; attempts: number }>;
}

export const emailEventDeliveryContract = defineWorkflow<[EmailEventDeliveryInput], EmailEventDeliveryResult>(
  'emailEventDelivery',
  'email-event',
);

/** One workflow per event: a repeated start (the re-dispatch sweep) attaches to it instead of delivering twice. */
export const emailEventWorkflowId = (eventId: string) => `${emailEventDeliveryContract.jobKind}:${eventId}`;
