import { postWebhook } from './deliver';
import { eventBody, type StoredEvent } from './event';
import { signedHeaders } from './signing';

export type DeliveryRowStatus = 'pending' | 'delivered' | 'failed';

/** What one attempt needs to know about its delivery, as an area's store reads it. */
export interface AttemptContext {
  status: DeliveryRowStatus;
  attempts: number;
  url: string;
  enabled: boolean;
  secret_enc: string;
  event: StoredEvent;
}

export interface AttemptRecord {
  status: DeliveryRowStatus;
  httpStatus: number | null;
  error: string | null;
  /** False for outcomes decided without a POST (disabled endpoint, unreadable secret). */
  counted: boolean;
}

export interface AttemptSteps {
  /** Opens the sealed signing secret; throws when it cannot be opened. */
  openSecret(envelope: string): string;
  /** Records the outcome on the delivery row and answers the attempts counted so far. */
  record(outcome: AttemptRecord): Promise<number>;
  timeoutMs: number;
  allowPrivateHosts: boolean;
}

/** `retry`: not delivered yet, try again later; `gone`: the delivery (its endpoint) was deleted. */
export interface AttemptResult {
  status: 'delivered' | 'failed' | 'retry' | 'gone';
  httpStatus: number | null;
  attempts: number;
}

/**
 * One signed POST of a pending delivery (Standard Webhooks headers, a fresh timestamp), recorded through `steps`. A
 * settled delivery is never sent again (a retried activity answers its status); `final` turns a retryable failure
 * into `failed`.
 */
export async function attemptSignedDelivery(
  context: AttemptContext | undefined,
  final: boolean,
  steps: AttemptSteps,
): Promise<AttemptResult> {
  if (!context) return { status: 'gone', httpStatus: null, attempts: 0 };
  if (context.status !== 'pending') return { status: context.status, httpStatus: null, attempts: context.attempts };
  const record = async (status: DeliveryRowStatus, httpStatus: number | null, error: string | null, counted = true) => {
    const attempts = await steps.record({ status, httpStatus, error, counted });
    return { status: status === 'pending' ? ('retry' as const) : status, httpStatus, attempts };
  };
  if (!context.enabled) return record('failed', null, 'endpoint disabled', false);
  let secret: string;
  try {
    secret = steps.openSecret(context.secret_enc);
  } catch {
    return record('failed', null, 'signing secret cannot be opened (SECRET_HASH_KEY changed?)', false);
  }
  const body = eventBody(context.event);
  const timestamp = Math.floor(Date.now() / 1000);
  const result = await postWebhook(context.url, body, signedHeaders(secret, context.event.id, timestamp, body), {
    timeoutMs: steps.timeoutMs,
    allowPrivateHosts: steps.allowPrivateHosts,
  });
  if (result.delivered) return record('delivered', result.httpStatus, null);
  return record(result.retryable && !final ? 'pending' : 'failed', result.httpStatus, result.error);
}
