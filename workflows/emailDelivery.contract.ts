import { defineWorkflow } from './defineWorkflow';

/** The email delivery workflow's contract, shared by the API, the activities and the workflow. No I/O. */

/** How a message is retried after a temporary failure (from the accepting process's config, fixed per message). */
export interface DeliveryRetry {
  /** The wait after the first failed attempt; each later wait doubles, up to `maxIntervalMs`. */
  initialIntervalMs: number;
  maxIntervalMs: number;
  /** ISO 8601: after this, the next failed attempt is the last and the recipients still waiting fail. */
  expiresAt: string;
}

export interface EmailDeliveryInput {
  accountId: string;
  emailId: string;
  retry: DeliveryRetry;
  /** Attempts already made elsewhere (a batch's first attempt): the workflow waits before its own first one. */
  attemptsMade?: number;
}

export interface EmailDeliveryResult {
  email_id: string;
  status: 'sent' | 'failed' | 'gone';
  attempts: number;
}

/** One accepted live message, delivered with retries until every recipient is settled: `email-delivery:<account>:<emailId>`. */
export const emailDeliveryContract = defineWorkflow<[EmailDeliveryInput], EmailDeliveryResult>('emailDelivery', 'email-delivery');

export interface DeliveryAttemptInput {
  accountId: string;
  emailIds: string[];
  /** This attempt's number (1 for the first): a retried activity of the same attempt may take its messages again. */
  attempt: number;
  /** The last attempt: recipients still waiting after it fail (`delivery_expired`). */
  final: boolean;
}

export interface DeliveryAttemptOutcome {
  /** Per message: `settled` (every recipient has its outcome), `deferred` (some wait for another attempt) or `gone`. */
  results: Array<{ emailId: string; state: 'settled' | 'deferred' | 'gone'; status: string }>;
  sent: number;
  failed: number;
  /** The webhook events recorded, whose delivery workflows the caller starts. */
  eventIds: string[];
  /** The key was revoked: nothing was relayed, the messages failed (`api_key_revoked`). */
  keyRevoked: boolean;
}
