import { defineSignal } from '@temporalio/workflow';
import { defineWorkflow, withSignals } from './defineWorkflow';
import type { DeliveryRetry } from './emailDelivery.contract';

/** The scheduled email workflow's contract, shared by the API, the activities and the workflow. No I/O. */

export interface ScheduledSendInput {
  accountId: string;
  keyId: string;
  emailId: string;
  /** ISO 8601; the database's `scheduled_at` stays the truth (a reschedule signal only wakes the timer). */
  scheduledAt: string;
}

export interface ScheduledSendResult {
  email_id: string;
  status: 'sent' | 'simulated' | 'failed' | 'cancelled';
  error_code?: string;
}

/** `PATCH /v1/email/emails/{id}`: the message's new time. */
export const rescheduleEmailSignal = defineSignal<[{ scheduled_at: string }]>('reschedule');
/** `POST /v1/email/emails/{id}/cancel`: the message is `cancelled`; the workflow ends without sending. */
export const cancelEmailSignal = defineSignal<[{ reason: string }]>('cancel');

/** One scheduled message sent at its time: `email-scheduled:<account>:<emailId>`. */
export const emailScheduledSendContract = withSignals(
  defineWorkflow<[ScheduledSendInput], ScheduledSendResult>('emailScheduledSend', 'email-scheduled'),
  { reschedule: rescheduleEmailSignal, cancel: cancelEmailSignal },
);

export interface ScheduledAttemptInput {
  accountId: string;
  emailId: string;
}

export type ScheduledAttempt =
  /** Due and accepted for delivery (`queued`): the workflow delivers it with retries; `eventIds`: its skipped recipients' `email.suppressed`. */
  | { outcome: 'queued'; retry: DeliveryRetry; eventIds: string[] }
  /** Simulated, failed or found cancelled; `eventIds`: its `email.failed` event. */
  | { outcome: 'done'; result: ScheduledSendResult; eventIds: string[] }
  /** Not due yet by the database (moved later): wait until `scheduledAt`. */
  | { outcome: 'not_due'; scheduledAt: string }
  /** The key's per-second window is full: try again after `waitMs`. */
  | { outcome: 'rate_limited'; waitMs: number };
