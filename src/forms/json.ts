import { z } from 'zod';
import { iso } from '../http/fields';
import type { SubmissionRow } from './store';

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The API view of a ledger row (snake_case, like the other doc2 resources). */
export function toSubmissionJson(row: SubmissionRow) {
  const raw = row.raw_payload;
  return {
    id: row.id,
    source: row.source,
    form_label: row.form_label,
    fields: row.fields,
    page_path: row.page_path,
    email: row.email,
    spam: row.spam,
    duplicate: row.duplicate,
    historical: row.historical,
    contact_id: row.contact_id,
    submission_id: str(raw.submission_id),
    site_id: str(raw.site_id),
    connection_id: str(raw.connection_id),
    event_id: str(raw.event_id),
    submitted_at: row.submitted_at.toISOString(),
    processed_at: iso(row.processed_at),
    deleted_at: iso(row.deleted_at),
    created_at: row.created_at.toISOString(),
  };
}

/** The single-row view adds the payload as the platform sent it. */
export function toSubmissionDetailJson(row: SubmissionRow) {
  return { ...toSubmissionJson(row), raw_payload: row.raw_payload.payload ?? {} };
}

const ts = z.string().describe('ISO 8601 timestamp.');

export const submissionSchema = z
  .object({
    id: z.string().describe('Ledger row id (uuid).'),
    source: z.enum(['platform']).describe('Where the submission came from; `platform` for the site platform (deliveries and backfill).'),
    form_label: z.string().describe("The form's name as the platform sent it (`payload.name`); `Unnamed form` when it sent none."),
    fields: z.record(z.string(), z.unknown()).describe('The submitted fields (`payload.data`), as sent.'),
    page_path: z.string().describe('The page the form was submitted on; `/` for platform deliveries (they carry no page path).'),
    email: z.string().nullable().describe("The sender's email read from the fields; null when none holds an address."),
    spam: z.boolean().describe('A honeypot field was filled in (see the list description).'),
    duplicate: z.boolean().describe('The same email sent the same form within 24 hours before (see the list description).'),
    historical: z.boolean().describe('Imported by the backfill: started no workflow and notified nobody.'),
    contact_id: z
      .string()
      .nullable()
      .describe('The CRM contact created or updated for this lead; null until processed or without an email.'),
    submission_id: z.string().nullable().describe("The platform's submission id (the idempotency key's last part)."),
    site_id: z.string().nullable(),
    connection_id: z.string().nullable(),
    event_id: z.string().nullable().describe('The inbound event that delivered it; null for backfilled rows.'),
    submitted_at: ts,
    processed_at: ts.nullable().describe('When the contact and the notification were done; null before (and for spam or historical rows).'),
    deleted_at: ts.nullable().describe('Soft-deleted at; null while live.'),
    created_at: ts,
  })
  .meta({ id: 'FormSubmission' });

export const submissionDetailSchema = submissionSchema
  .extend({
    raw_payload: z.record(z.string(), z.unknown()).describe("The delivery's `payload` object (or the backfilled submission mapped to it)."),
  })
  .meta({ id: 'FormSubmissionDetail' });
