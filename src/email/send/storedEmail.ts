import { z } from 'zod';
import { recipientsDescription } from './docs';
import type { AppDeps } from '../../deps';
import type { EmailKeyAuth } from '../keys/authenticate';
import { recipientRows, type RecipientRow } from './queueStore';
import { getEmail } from './service';
import type { MessageRow } from './store';

/** A recipient as every email answer shows it: the send's answer (its state now) and a stored email's. */
export const recipientSchema = z
  .object({
    email: z.string().describe('The address, lower case.'),
    type: z.enum(['to', 'cc', 'bcc']),
    state: z.enum([
      'queued',
      'simulated',
      'scheduled',
      'cancelled',
      'skipped',
      'deferred',
      'sent',
      'delayed',
      'delivered',
      'bounced',
      'complained',
      'failed',
    ]),
    reason: z.string().optional().describe('Why a `skipped` recipient is suppressed: bounce, complaint, manual or unsubscribe.'),
    detail: z.record(z.string(), z.unknown()).optional().describe('What the relay or a report said about it last.'),
    updated_at: z.string().optional().describe('ISO 8601: when its state last changed.'),
  })
  .meta({ id: 'EmailRecipient' });

/** A stored email as `GET /v1/email/messages/{id}` and `GET /v1/email/emails/{id}` answer it. */
export const storedEmailSchema = z
  .object({
    id: z.string(),
    object: z.literal('email'),
    batch_id: z.string().nullable().describe('The queued batch the email belongs to, if any.'),
    status: z
      .enum(['scheduled', 'cancelled', 'queued', 'deferred', 'sending', 'sent', 'simulated', 'failed'])
      .describe(
        "`scheduled` (waiting for `scheduled_at`), `cancelled` (cancelled before its time), `queued` (accepted, waiting for its first delivery attempt), `sending` (at the relay), `deferred` (some recipient waits for a retry after a temporary failure; `last_error`), `sent` (the relay took it for at least one recipient), `simulated` (a test key's scheduled email at its time: nothing sent), or `failed` (`error_code`).",
      ),
    messageId: z.string().nullable(),
    from: z.string().describe('The sender address.'),
    to: z.array(z.string()),
    subject: z.string(),
    error_code: z
      .string()
      .nullable()
      .describe(
        'Why it failed: smtp_rejected (the relay refused every recipient), delivery_expired (not taken before the delivery time ran out), api_key_revoked (the key was revoked before it was handed over), daily_quota_exceeded or recipient_suppressed (a scheduled email at its time).',
      ),
    attempts: z.number().int().describe('Delivery attempts made so far.'),
    last_error: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('What the relay said when the last attempt failed for some recipient (`smtp_code`, `status`, `stage`, `diagnostic_code`).'),
    recipients: z.array(recipientSchema).describe(recipientsDescription),
    created_at: z.string().describe('ISO 8601'),
    scheduled_at: z.string().nullable().describe('ISO 8601: when a scheduled email is (or was) to be sent; null otherwise.'),
    sent_at: z.string().nullable().describe('ISO 8601'),
  })
  .meta({ id: 'EmailMessage' });

export type StoredEmailJson = z.infer<typeof storedEmailSchema>;

export const toStoredEmailJson = (r: MessageRow, recipients: RecipientRow[]): StoredEmailJson => ({
  id: r.id,
  object: 'email',
  batch_id: r.batch_id,
  status: r.status,
  messageId: r.smtp_message_id,
  from: r.from_address,
  to: r.to_addresses,
  subject: r.subject,
  error_code: r.error_code,
  attempts: r.attempts,
  last_error: r.last_error,
  recipients:
    recipients.length > 0
      ? recipients.map(toRecipientJson)
      : r.to_addresses.map((email) => ({ email: email.toLowerCase(), type: 'to', state: stateOf(r.status) })),
  created_at: r.created_at.toISOString(),
  scheduled_at: r.scheduled_at?.toISOString() ?? null,
  sent_at: r.sent_at?.toISOString() ?? null,
});

const toRecipientJson = (r: RecipientRow): z.infer<typeof recipientSchema> => ({
  email: r.email,
  type: r.type,
  state: r.state,
  ...(r.state === 'skipped' && typeof r.detail.reason === 'string' ? { reason: r.detail.reason } : {}),
  detail: r.detail,
  updated_at: r.updated_at.toISOString(),
});

/** An email stored without recipient rows (scheduled, cancelled, simulated): each `to` shows the email's own state. */
function stateOf(status: MessageRow['status']): z.infer<typeof recipientSchema>['state'] {
  return status === 'sending' ? 'queued' : status;
}

/** An email of the account as the read routes answer it (404 `email_not_found` otherwise). */
export async function readStoredEmail(deps: AppDeps, auth: EmailKeyAuth, id: string): Promise<StoredEmailJson> {
  const row = await getEmail(deps, auth, id);
  return toStoredEmailJson(row, await recipientRows(deps.db, auth.accountId, row.id));
}
