// Shared by the webhook delivery workflows (email events, account alerts) and their contracts; no I/O.

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

export type DeliveryStatus = 'delivered' | 'failed';

/** `retry`: not delivered yet, try again later; `gone`: the endpoint (and with it the delivery) was deleted. */
export type AttemptOutcome = { status: DeliveryStatus | 'retry' | 'gone'; httpStatus: number | null };

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
