import { condition, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { cancelEmailSignal, rescheduleEmailSignal, type ScheduledSendInput, type ScheduledSendResult } from './emailScheduledSend.contract';
import { deliverUntilSettled } from './emailDelivery';
import { startEventDeliveries } from './emailEventDelivery';
import { trackProgress } from './progress';

const { sendScheduledEmail } = proxyActivities<Activities>({
  // The checks at the time; the relay is the delivery loop's.
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Sends one scheduled message (`email-scheduled:<account>:<emailId>`) at its time. The wait is a durable timer,
 * re-armed by a `reschedule` signal and ended by `cancel`; at the time, one activity re-checks the message and the
 * key and queues it, and the message is delivered like a send accepted now (retried until every recipient has its
 * outcome). The database decides: a timer that fires before a moved time only re-arms to it.
 */
export async function emailScheduledSend(input: ScheduledSendInput): Promise<ScheduledSendResult> {
  const progress = trackProgress('waiting', 1);
  let sendAt = Date.parse(input.scheduledAt);
  let woken = false;
  let cancelled = false;
  setHandler(rescheduleEmailSignal, ({ scheduled_at }) => {
    sendAt = Date.parse(scheduled_at);
    woken = true;
  });
  setHandler(cancelEmailSignal, () => {
    cancelled = true;
  });

  for (;;) {
    woken = false;
    // condition() without a positive timeout would wait forever: a time already past still waits 1 ms.
    await condition(() => woken || cancelled, Math.max(1, sendAt - Date.now()));
    if (cancelled) return finish({ email_id: input.emailId, status: 'cancelled' });
    if (woken || Date.now() < sendAt) continue;

    progress.phase('sending', 1);
    const attempt = await sendScheduledEmail({ accountId: input.accountId, emailId: input.emailId });
    if (attempt.outcome === 'rate_limited') {
      await sleep(attempt.waitMs);
    } else if (attempt.outcome === 'queued') {
      if (attempt.eventIds.length > 0)
        await startEventDeliveries(attempt.eventIds.map((eventId) => ({ accountId: input.accountId, eventId })));
      const delivered = await deliverUntilSettled(input.accountId, input.emailId, attempt.retry, 0);
      return finish({ email_id: input.emailId, status: delivered.status === 'gone' ? 'cancelled' : delivered.status });
    } else if (attempt.outcome === 'not_due') {
      sendAt = Date.parse(attempt.scheduledAt);
      progress.phase('waiting', 1);
    } else {
      if (attempt.eventIds.length > 0)
        await startEventDeliveries(attempt.eventIds.map((eventId) => ({ accountId: input.accountId, eventId })));
      return finish(attempt.result);
    }
  }

  function finish(result: ScheduledSendResult): ScheduledSendResult {
    progress.phase(result.status, 1);
    progress.advance();
    return result;
  }
}
