import { z } from 'zod';
import { EMAIL_EVENT_TYPES } from '../webhooks/events';

/** What `messageOutcomes` answers, for the response schema of `GET /v1/email/emails/{id}` (`.extend(messageOutcomesShape)`). */
export const messageOutcomesShape = {
  state: z
    .string()
    .describe(
      'The most telling outcome over all recipients — `complained` > `bounced` > `delivered` > `delivery_delayed` — else the send status (`sent`, `failed`, `queued`, `scheduled`, `simulated`…).',
    ),
  events: z
    .array(
      z.object({
        type: z.enum(EMAIL_EVENT_TYPES),
        recipient: z.string().nullable().describe('The recipient an outcome is about (lower case); null for `email.sent`.'),
        at: z.string().describe('ISO 8601'),
        detail: z
          .record(z.string(), z.unknown())
          .describe('From the report: `status` (e.g. 5.1.1), `action`, `diagnostic_code`, `bounce_type`, `feedback_type`…'),
      }),
    )
    .describe('`email.sent`, then each outcome the return path (or the test-key simulator) recorded, oldest first.'),
  last_event: z.string().nullable().describe('The latest outcome recorded.'),
  delivered_at: z.string().nullable().describe('ISO 8601: the first delivery to any recipient.'),
  bounced_at: z.string().nullable(),
  complained_at: z.string().nullable(),
  delayed_at: z.string().nullable(),
};

export const messageOutcomesSchema = z.object(messageOutcomesShape);
