import { defineWorkflow } from './defineWorkflow';

/**
 * The email event delivery workflow's contract, shared by the API, the activities and the workflows: ids, inputs
 * and the retry policy. No I/O, so both the workflow bundle and `src/` import it.
 */

/** Exponential backoff between attempts at one endpoint, and when to give up. */
export interface DeliveryRetryPolicy {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  /**
   * Retrying ends once an attempt would be followed by a wait that ends more than this after the first attempt
   * (judged before each attempt); that attempt is the last and its failure is final.
   */
  giveUpAfterMs: number;
}

/** 30 s doubling to 1 h, for 24 h: about 30 attempts. */
export const DEFAULT_DELIVERY_RETRY: DeliveryRetryPolicy = {
  initialIntervalMs: 30_000,
  maximumIntervalMs: 60 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
};

export interface EmailEventDeliveryInput {
  accountId: string;
  eventId: string;
  /** Tests shorten the backoff to milliseconds; production runs use the default. */
  retry?: Partial<DeliveryRetryPolicy>;
}

export type DeliveryStatus = 'delivered' | 'failed';

export interface PreparedDelivery {
  deliveryId: string;
  endpointId: string;
}

export interface AttemptInput {
  accountId: string;
  deliveryId: string;
  /** When true, a retryable failure is recorded as final (`failed`). */
  final: boolean;
}

/** `retry`: not delivered yet, try again later; `gone`: the endpoint (and with it the delivery) was deleted. */
export type AttemptOutcome = { status: DeliveryStatus | 'retry' | 'gone'; httpStatus: number | null };

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
