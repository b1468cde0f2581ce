import type { Config } from '../../config';
import type { AppDeps } from '../../deps';
import { startJob } from '../../temporal/jobs';
import { emailDeliveryContract, type DeliveryRetry } from '../../../workflows/emailDelivery.contract';
import type { EmailKeyAuth } from '../keys/authenticate';
import type { PreparedMessage } from './prepare';
import * as queue from './queueStore';
import { recipientsOf } from './recipients';

/** How the messages accepted now are retried, from this process's config. */
export function deliveryRetry(config: Config, acceptedAt = new Date()): DeliveryRetry {
  return {
    initialIntervalMs: config.EMAIL_RETRY_INITIAL_SECONDS * 1000,
    maxIntervalMs: Math.max(config.EMAIL_RETRY_INITIAL_SECONDS, config.EMAIL_RETRY_MAX_SECONDS) * 1000,
    expiresAt: new Date(acceptedAt.getTime() + config.EMAIL_DELIVERY_MAX_AGE_SECONDS * 1000).toISOString(),
  };
}

/** The stored form of accepted messages: `queued`, each recipient `queued` or (suppressed) `skipped`. */
export function queuedItems(
  messages: PreparedMessage[],
  retry: DeliveryRetry,
  quotaDay: string | null,
  batchId?: string,
): queue.QueuedMessageInput[] {
  return messages.map((message, index) => {
    const skipped = new Map(message.skipped.map((s) => [s.email, s.reason]));
    return {
      message,
      quotaDay,
      expiresAt: new Date(retry.expiresAt),
      recipients: recipientsOf(message).map((r) =>
        skipped.has(r.email)
          ? { ...r, state: 'skipped' as const, detail: { reason: skipped.get(r.email) } }
          : { ...r, state: 'queued' as const },
      ),
      ...(batchId ? { batch: { id: batchId, index } } : {}),
    };
  });
}

/**
 * Accepts one live message: stored `queued`, then its delivery job (`email-delivery:<account>:<id>`) started. When
 * the job cannot be started the message goes again and the error (503 `temporal_unavailable`) is the caller's: the
 * request was not accepted.
 */
export async function enqueueMessage(
  deps: AppDeps,
  auth: EmailKeyAuth,
  message: PreparedMessage,
  quotaDay: string | null,
  requestId: string,
): Promise<void> {
  const retry = deliveryRetry(deps.config, message.createdAt);
  await queue.insertQueued(deps.db, auth.accountId, auth.keyId, queuedItems([message], retry, quotaDay));
  try {
    await startJob(deps.temporal, deps.metrics, emailDeliveryContract, {
      accountId: auth.accountId,
      key: message.id,
      args: [{ accountId: auth.accountId, emailId: message.id, retry }],
      requestId,
    });
  } catch (err) {
    await queue.deleteQueued(deps.db, auth.accountId, [message.id]);
    throw err;
  }
}
