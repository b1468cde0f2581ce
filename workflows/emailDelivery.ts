import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { DeliveryRetry, EmailDeliveryInput, EmailDeliveryResult } from './emailDelivery.contract';
import { startEventDeliveries } from './emailEventDelivery';
import { trackProgress } from './progress';

const { attemptEmailDeliveries } = proxyActivities<Activities>({
  // One attempt: a transaction per recipient through the pooled relay (five at a time, each within its 60 s deadline).
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Delivers one accepted live message (`email-delivery:<account>:<emailId>`): an attempt now, then after a temporary
 * failure (a 4xx, the relay unreachable) again after a wait that doubles from `initialIntervalMs` up to
 * `maxIntervalMs`, until every recipient has its outcome. The first attempt at or after `expiresAt` is the last.
 */
export async function emailDelivery(input: EmailDeliveryInput): Promise<EmailDeliveryResult> {
  const progress = trackProgress('sending', 1);
  const result = await deliverUntilSettled(input.accountId, input.emailId, input.retry, input.attemptsMade ?? 0, (attempts) =>
    progress.phase(attempts > 0 ? 'waiting_to_retry' : 'sending', 1),
  );
  progress.phase(result.status, 1);
  progress.advance();
  return result;
}

/**
 * The retry loop, shared with the scheduled send once its message is due. `attemptsMade`: attempts before this loop
 * (it then waits before its first).
 */
export async function deliverUntilSettled(
  accountId: string,
  emailId: string,
  retry: DeliveryRetry,
  attemptsMade: number,
  onWait: (attempts: number) => void = () => undefined,
): Promise<EmailDeliveryResult> {
  const expiresAt = Date.parse(retry.expiresAt);
  let attempts = attemptsMade;
  for (;;) {
    if (attempts > 0) {
      onWait(attempts);
      await sleep(Math.max(1, Math.min(retryWaitMs(retry, attempts), expiresAt - Date.now())));
    }
    attempts++;
    const outcome = await attemptEmailDeliveries({ accountId, emailIds: [emailId], attempt: attempts, final: Date.now() >= expiresAt });
    if (outcome.eventIds.length > 0) await startEventDeliveries(outcome.eventIds.map((eventId) => ({ accountId, eventId })));
    const [only] = outcome.results;
    if (!only || only.state === 'gone') return { email_id: emailId, status: 'gone', attempts };
    if (only.state === 'settled') return { email_id: emailId, status: only.status === 'failed' ? 'failed' : 'sent', attempts };
  }
}

/** The wait before attempt `attempts + 1`: doubling from the initial interval, capped, with ±10 % jitter. */
export function retryWaitMs(retry: DeliveryRetry, attempts: number): number {
  const base = Math.min(retry.maxIntervalMs, retry.initialIntervalMs * 2 ** Math.max(0, attempts - 1));
  // Math.random is deterministic inside a workflow (seeded per run), so a replay waits the same.
  return Math.round(base * (0.9 + Math.random() * 0.2));
}
