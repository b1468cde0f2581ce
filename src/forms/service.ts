import type { Knex } from '../db/knex';
import { addActivity, upsertContactByEmail } from '../crm/service';
import { ApiError } from '../http/errors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import { raiseInboxItem } from '../inbox/service';
import { writeTrigger } from '../triggers/outbox';
import { emailOf, isSpam, nameOf } from './rules';
import * as store from './store';
import type { SubmissionFilter, SubmissionRow } from './store';
import { derivedSubmissionIdOf, isDerivedSubmissionId, platformIdempotencyKey, submissionIdOf } from './submissionId';

export type { SubmissionFilter, SubmissionRow };
export { submissionIdOf, platformIdempotencyKey };

/** Routed submissions carry no page path (doc2 Events "Form submission handling" 5). */
export const PLATFORM_PAGE_PATH = '/';
/** The label of a submission whose payload names no form. */
export const UNNAMED_FORM = 'Unnamed form';
/** The inbox kind of the notification a new lead queues (one per ledger row). */
export const NOTIFICATION_KIND = 'form_submission_received';

export const submissionNotFound = () => new ApiError(404, 'form_submission_not_found', 'form submission not found');

export interface PlatformSubmissionInput {
  connectionId: string;
  siteId: string;
  /** The inbound event's id (for a delivery, the submission id again); absent for backfilled rows. */
  eventId?: string;
  /** The delivery's payload object, or a backfilled submission mapped to the same shape (`name`, `data`, `submittedAt`, `id`). */
  payload: Record<string, unknown>;
  /** Backfilled: the row starts no workflow and notifies nobody. */
  historical: boolean;
  /** The project the row is recorded for (a backfill's); absent: the account's oldest non-disabled binding of the site. */
  projectId?: string;
}

export type RecordOutcome =
  | { kind: 'recorded'; submissionId: string; created: boolean; id: string; spam: boolean; duplicate: boolean }
  | { kind: 'permanent'; reason: string };

const NO_ID_REASON = 'the submission has no id (or only the form element id) and no form name and submission time to derive one from';

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function submittedAtOf(value: unknown): Date {
  const at = typeof value === 'string' ? new Date(value) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : new Date();
}

/**
 * Writes a platform submission to the ledger (doc2 Events "Form submission handling" 1–4): idempotency key
 * `platform:<accountId>:<submissionId>`, source `platform`, form label `payload.name`, fields `payload.data`, page path
 * `/`, the spam and duplicate flags, and the raw payload with its site, event and connection ids. A NEW, non-spam,
 * non-historical row also writes the `form_submitted` workflow trigger in the same transaction (dedup key = the
 * idempotency key), so a replay fires nothing and the caller never fires it itself.
 *
 * `db` may be the caller's transaction; without one the row and its trigger get their own. Throws on a database failure.
 * A payload with no usable submission id is `permanent` (nothing written; report it, do not retry).
 */
export async function recordPlatformSubmission(db: Knex, accountId: string, input: PlatformSubmissionInput): Promise<RecordOutcome> {
  const submissionId = submissionIdOf(input.payload);
  if (submissionId === undefined) return { kind: 'permanent', reason: NO_ID_REASON };
  const fields = asRecord(input.payload.data);
  const spam = isSpam(fields);
  const row: store.NewSubmission = {
    source: 'platform',
    idempotency_key: platformIdempotencyKey(accountId, submissionId),
    form_label: typeof input.payload.name === 'string' && input.payload.name.trim() !== '' ? input.payload.name.trim() : UNNAMED_FORM,
    fields,
    page_path: PLATFORM_PAGE_PATH,
    spam,
    historical: input.historical,
    email: emailOf(fields) ?? null,
    raw_payload: {
      payload: input.payload,
      site_id: input.siteId,
      connection_id: input.connectionId,
      event_id: input.eventId ?? null,
      submission_id: submissionId,
    },
    submitted_at: submittedAtOf(input.payload.submittedAt),
    site_id: input.siteId,
    project_id: input.projectId ?? null,
  };
  const write = async (trx: Knex) => {
    const known = await sameSubmissionUnderOtherKey(trx, accountId, input, row);
    if (known)
      return { kind: 'recorded' as const, submissionId, created: false, id: known.id, spam: known.spam, duplicate: known.duplicate };
    const { row: saved, created } = await store.insertSubmission(trx, accountId, row);
    if (created && !saved.spam && !saved.historical) {
      await writeTrigger(trx, accountId, { trigger: 'form_submitted', dedupKey: saved.idempotency_key, payload: triggerPayload(saved) });
    }
    return { kind: 'recorded' as const, submissionId, created, id: saved.id, spam: saved.spam, duplicate: saved.duplicate };
  };
  return db.isTransaction ? write(db) : db.transaction(write);
}

/**
 * A delivery whose payload has no id of its own (its id is the form element's) is keyed by the derived id, while the
 * platform's listing of the same submission carries its real id: each side looks for the other, so a backfill after
 * such a delivery, or such a delivery after a backfill, finds the row instead of writing it twice.
 */
async function sameSubmissionUnderOtherKey(
  db: Knex,
  accountId: string,
  input: PlatformSubmissionInput,
  row: store.NewSubmission,
): Promise<SubmissionRow | undefined> {
  if (input.historical) {
    const derived = derivedSubmissionIdOf(input.payload);
    if (derived === undefined || platformIdempotencyKey(accountId, derived) === row.idempotency_key) return undefined;
    return store.findByKeyOrId(db, accountId, { key: platformIdempotencyKey(accountId, derived) });
  }
  return isDerivedSubmissionId(input.payload) ? store.findHistoricalAt(db, accountId, row.form_label, row.submitted_at) : undefined;
}

function triggerPayload(row: SubmissionRow): Record<string, unknown> {
  const raw = row.raw_payload;
  return {
    form_submission_id: row.id,
    submission_id: raw.submission_id ?? null,
    source: row.source,
    form_label: row.form_label,
    fields: row.fields,
    email: row.email,
    page_path: row.page_path,
    duplicate: row.duplicate,
    site_id: raw.site_id ?? null,
    connection_id: raw.connection_id ?? null,
    submitted_at: row.submitted_at.toISOString(),
  };
}

export type ProcessOutcome =
  | { kind: 'processed'; id: string; contactId: string | null; contactCreated: boolean; notified: boolean }
  | { kind: 'already_processed'; id: string; contactId: string | null }
  | { kind: 'skipped'; id: string; reason: 'spam' | 'historical' | 'deleted' }
  | { kind: 'not_found' };

/**
 * The follow-ups of a new lead (doc2 Events "Form submission handling" 3), run by the fan-out workflow's activity:
 * creates or updates the CRM contact of the submitted email (a missing name is filled in from the form, the
 * submission lands on the contact's timeline), links it to the row, and queues the notification (an inbox item
 * `form_submission_received`). Spam, historical and deleted rows get none of it. Idempotent: everything, and the
 * `processed_at` stamp, commits in one transaction under the row's lock, so a retry after a failure redoes it once and
 * a retry after success changes nothing. `submissionId` is the platform submission id (the event id), or the row's id.
 * A submission without an email address creates no contact (a name alone would make a new contact each time).
 */
export async function processNewSubmission(deps: { db: Knex }, accountId: string, submissionId: string): Promise<ProcessOutcome> {
  return deps.db.transaction(async (trx) => {
    const key = platformIdempotencyKey(accountId, submissionId);
    const row = await store.findByKeyOrId(trx, accountId, { key, id: isUuid(submissionId) ? submissionId : undefined }, true);
    if (!row) return { kind: 'not_found' as const };
    if (row.processed_at) return { kind: 'already_processed' as const, id: row.id, contactId: row.contact_id };
    const skip = row.spam ? 'spam' : row.historical ? 'historical' : row.deleted_at ? 'deleted' : undefined;
    if (skip) return { kind: 'skipped' as const, id: row.id, reason: skip };

    let contactId: string | null = null;
    let contactCreated = false;
    if (row.email) {
      const { contact, created } = await upsertContactByEmail(trx, accountId, {
        email: row.email,
        name: nameOf(row.fields) ?? null,
        source: 'form',
      });
      contactId = contact.id;
      contactCreated = created;
      await addActivity(trx, accountId, contact.id, {
        kind: 'form_submission',
        body: `Submitted the form "${row.form_label}"`,
        externalId: `form_submission:${row.id}`,
        occurredAt: row.submitted_at,
        metadata: { form_submission_id: row.id, form_label: row.form_label, page_path: row.page_path, duplicate: row.duplicate },
      });
    }
    const { created: notified } = await raiseInboxItem(trx, accountId, {
      kind: NOTIFICATION_KIND,
      dedupKey: `form_submission:${row.id}`,
      title: `New submission of "${row.form_label}"${row.email ? ` from ${row.email}` : ''}`,
      body: {
        form_submission_id: row.id,
        form_label: row.form_label,
        email: row.email,
        contact_id: contactId,
        duplicate: row.duplicate,
        site_id: row.raw_payload.site_id ?? null,
        submitted_at: row.submitted_at.toISOString(),
      },
    });
    await store.markProcessed(trx, accountId, row.id, contactId);
    return { kind: 'processed' as const, id: row.id, contactId, contactCreated, notified };
  });
}

export async function listSubmissions(db: Knex, accountId: string, filter: SubmissionFilter, page: Page) {
  return store.listSubmissions(db, accountId, filter, page);
}

export async function getSubmission(db: Knex, accountId: string, id: string): Promise<SubmissionRow> {
  const row = isUuid(id) ? await store.findSubmission(db, accountId, id) : undefined;
  if (!row) throw submissionNotFound();
  return row;
}

/** Soft delete: the row leaves the default listing and the lead counts, and stays readable by id. */
export async function deleteSubmission(db: Knex, accountId: string, id: string): Promise<void> {
  const row = isUuid(id) ? await store.softDeleteSubmission(db, accountId, id) : undefined;
  if (!row) throw submissionNotFound();
}
