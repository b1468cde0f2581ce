/** What the relay (or the test-key simulator) reported about one recipient of a sent email. */
export const OUTCOME_EVENT_TYPES = ['email.delivered', 'email.bounced', 'email.complained', 'email.delivery_delayed'] as const;
export type OutcomeEventType = (typeof OUTCOME_EVENT_TYPES)[number];

export interface Outcome {
  type: OutcomeEventType;
  /** The recipient the report is about, lower case. */
  recipient: string;
  /** From the report: status (`5.1.1`), action, diagnostic code, feedback type, reporting MTA… Never a body. */
  detail: Record<string, unknown>;
  /** A hard bounce or a complaint: the recipient goes on the account's suppression list. */
  suppress?: 'bounce' | 'complaint';
}

/** The email_messages column each outcome stamps (first time only). */
export const OUTCOME_COLUMN: Record<OutcomeEventType, string> = {
  'email.delivered': 'delivered_at',
  'email.bounced': 'bounced_at',
  'email.complained': 'complained_at',
  'email.delivery_delayed': 'delayed_at',
};
