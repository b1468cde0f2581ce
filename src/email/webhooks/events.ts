/** The events the email service emits and webhook endpoints subscribe to. */
export const EMAIL_EVENT_TYPES = [
  'email.sent',
  'email.failed',
  'email.scheduled',
  // Delivery outcomes and suppressions (src/email/outcomes, src/email/suppressions).
  'email.delivered',
  'email.bounced',
  'email.complained',
  'email.delivery_delayed',
  'email.suppressed',
  // A recipient used a one-click unsubscribe link (src/email/unsubscribe).
  'email.unsubscribed',
  // A recipient's first open (tracking pixel) and first click of each link, when the sender domain tracks them
  // (src/email/tracking).
  'email.opened',
  'email.clicked',
] as const;
export type EmailEventType = (typeof EMAIL_EVENT_TYPES)[number];

/** Sent by `POST /v1/email/webhooks/{id}/test` to that one endpoint; nobody subscribes to it. */
export const TEST_EVENT_TYPE = 'email.test';

export interface EmailEventInput {
  type: EmailEventType;
  data: Record<string, unknown>;
}

export { eventBody, type StoredEvent } from '../../webhookKit/event';
