import { isCancellation, sleep } from '@temporalio/workflow';
import type { AttemptOutcome, DeliveryRetryPolicy, DeliveryStatus } from './webhookRetryPolicy';

/** One attempt (an activity): `final` turns a retryable failure into `failed`. */
export type AttemptStep = (final: boolean) => Promise<AttemptOutcome & { attempts: number }>;

/**
 * The retry loop of one delivery, shared by the webhook delivery workflows: one attempt activity per try, exponential
 * backoff between tries, until delivered, refused for good, gone, or out of time. A failing activity (database down)
 * counts as a failed try.
 */
export async function deliverWithRetries(
  attempt: AttemptStep,
  policy: DeliveryRetryPolicy,
): Promise<{ status: DeliveryStatus | 'gone'; attempts: number }> {
  const startedAt = Date.now();
  let delayMs = policy.initialIntervalMs;
  let attempts = 0;
  for (;;) {
    const final = Date.now() + delayMs - startedAt > policy.giveUpAfterMs;
    let status: DeliveryStatus | 'gone' | 'retry' = 'retry';
    try {
      const outcome = await attempt(final);
      status = outcome.status;
      attempts = outcome.attempts;
    } catch (err) {
      if (isCancellation(err)) throw err;
      if (final) status = 'failed';
    }
    if (status !== 'retry') return { status, attempts };
    await sleep(delayMs);
    delayMs = Math.min(delayMs * 2, policy.maximumIntervalMs);
  }
}
