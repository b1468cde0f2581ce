import { z } from 'zod';
import type { MessageRow } from './store';

/** A stored email as `GET /v1/email/messages/{id}` and `GET /v1/email/emails/{id}` answer it. */
export const storedEmailSchema = z.object({
  id: z.string(),
  object: z.literal('email'),
  batch_id: z.string().nullable().describe('The queued batch the email belongs to, if any.'),
  status: z
    .enum(['scheduled', 'cancelled', 'queued', 'sending', 'sent', 'simulated', 'failed'])
    .describe(
      "`scheduled` (waiting for `scheduled_at`), `cancelled` (cancelled before its time), `queued` (a batch waiting for its turn), `sending` (at the relay), `sent`, `simulated` (a test key's scheduled email at its time: nothing sent), or `failed` (`error_code`).",
    ),
  messageId: z.string().nullable(),
  from: z.string().describe('The sender address.'),
  to: z.array(z.string()),
  subject: z.string(),
  error_code: z
    .string()
    .nullable()
    .describe(
      'Why it failed: smtp_rejected, smtp_unavailable, api_key_revoked (the key was revoked before its turn or time), daily_quota_exceeded (a scheduled email over the cap at its time) or smtp_not_configured.',
    ),
  created_at: z.string().describe('ISO 8601'),
  scheduled_at: z.string().nullable().describe('ISO 8601: when a scheduled email is (or was) to be sent; null otherwise.'),
  sent_at: z.string().nullable().describe('ISO 8601'),
});

export type StoredEmailJson = z.infer<typeof storedEmailSchema>;

export const toStoredEmailJson = (r: MessageRow): StoredEmailJson => ({
  id: r.id,
  object: 'email',
  batch_id: r.batch_id,
  status: r.status,
  messageId: r.smtp_message_id,
  from: r.from_address,
  to: r.to_addresses,
  subject: r.subject,
  error_code: r.error_code,
  created_at: r.created_at.toISOString(),
  scheduled_at: r.scheduled_at?.toISOString() ?? null,
  sent_at: r.sent_at?.toISOString() ?? null,
});
