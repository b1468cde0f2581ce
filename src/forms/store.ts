import type { Knex } from '../db/knex';
import { offsetOf, type Page } from '../http/pagination';
import { DUPLICATE_WINDOW_HOURS } from './rules';

export type SubmissionSource = 'platform';

export interface SubmissionRow {
  id: string;
  account_id: string;
  source: SubmissionSource;
  idempotency_key: string;
  form_label: string;
  fields: Record<string, unknown>;
  page_path: string;
  spam: boolean;
  duplicate: boolean;
  historical: boolean;
  email: string | null;
  contact_id: string | null;
  /** The project the submission belongs to (a project bound to its site); null when none was bound. */
  project_id: string | null;
  /** The delivery as recorded: the platform's `payload` object and the ids it came with. */
  raw_payload: { payload?: Record<string, unknown>; [key: string]: unknown };
  submitted_at: Date;
  processed_at: Date | null;
  deleted_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface NewSubmission {
  source: SubmissionSource;
  idempotency_key: string;
  form_label: string;
  fields: Record<string, unknown>;
  page_path: string;
  spam: boolean;
  historical: boolean;
  email: string | null;
  raw_payload: Record<string, unknown>;
  submitted_at: Date;
  /** The site the submission came from: with no explicit project, its oldest non-disabled project binding decides. */
  site_id: string;
  /** The project it is recorded for (the backfill's project); null lets the site's binding decide. */
  project_id: string | null;
}

/**
 * Inserts the row unless the account already holds its idempotency key (`created: false` and the existing row then).
 * The duplicate flag is decided in the same statement: a non-spam row with an email is a duplicate when an earlier
 * non-deleted, non-spam row of the account has the same email (case-insensitively) and form label and was submitted
 * within DUPLICATE_WINDOW_HOURS before it. The project is the given one, else the account's oldest non-disabled
 * binding of the site (the fan-out's order); an existing row without a project takes a given one.
 */
export async function insertSubmission(db: Knex, accountId: string, row: NewSubmission): Promise<{ row: SubmissionRow; created: boolean }> {
  const result = await db.raw(
    `insert into form_submissions (account_id, source, idempotency_key, form_label, fields, page_path, spam, duplicate,
                                   historical, email, raw_payload, submitted_at, project_id)
     select :account::uuid, :source, :key, :label, :fields::jsonb, :path, :spam,
            (:email::text is not null and not :spam and exists (
               select 1 from form_submissions e
               where e.account_id = :account::uuid and e.email is not null and lower(e.email) = lower(:email::text)
                 and e.form_label = :label and e.deleted_at is null and not e.spam
                 and e.submitted_at <= :at::timestamptz
                 and e.submitted_at > :at::timestamptz - make_interval(hours => :window))),
            :historical, :email::text, :raw::jsonb, :at::timestamptz,
            coalesce(:project::uuid, (
              select b.project_id from site_platform_project_bindings b
              where b.account_id = :account::uuid and b.site_id = :site::text and b.override_mode <> 'disabled'
              order by b.created_at, b.id limit 1))
     on conflict (account_id, idempotency_key) do nothing
     returning *`,
    {
      account: accountId,
      source: row.source,
      key: row.idempotency_key,
      label: row.form_label,
      fields: JSON.stringify(row.fields),
      path: row.page_path,
      spam: row.spam,
      email: row.email,
      window: DUPLICATE_WINDOW_HOURS,
      historical: row.historical,
      raw: JSON.stringify(row.raw_payload),
      at: row.submitted_at.toISOString(),
      site: row.site_id,
      project: row.project_id,
    },
  );
  if (result.rows.length > 0) return { row: result.rows[0] as SubmissionRow, created: true };
  const existing = await db<SubmissionRow>('form_submissions')
    .where({ account_id: accountId, idempotency_key: row.idempotency_key })
    .first();
  if (!existing) throw new Error('form submission neither inserted nor found');
  if (row.project_id && !existing.project_id) return { row: await claimForProject(db, existing, row.project_id), created: false };
  return { row: existing, created: false };
}

/** A row that arrived before its site was bound to a project joins the project a later backfill is run for. */
async function claimForProject(db: Knex, existing: SubmissionRow, projectId: string): Promise<SubmissionRow> {
  const [row] = await db<SubmissionRow>('form_submissions')
    .where({ account_id: existing.account_id, id: existing.id })
    .whereNull('project_id')
    .update({ project_id: projectId, updated_at: db.fn.now() })
    .returning('*');
  return (row as SubmissionRow | undefined) ?? existing;
}

/** The row of the account with this idempotency key, or this id; locked for the caller's transaction when `lock`. */
export async function findByKeyOrId(
  db: Knex,
  accountId: string,
  by: { key: string; id?: string },
  lock = false,
): Promise<SubmissionRow | undefined> {
  const q = db<SubmissionRow>('form_submissions')
    .where({ account_id: accountId })
    .andWhere((w) => {
      w.where({ idempotency_key: by.key });
      if (by.id) w.orWhere({ id: by.id });
    })
    .orderByRaw('(idempotency_key = ?) desc', [by.key])
    .first();
  return lock ? q.forUpdate() : q;
}

export async function markProcessed(db: Knex, accountId: string, id: string, contactId: string | null): Promise<void> {
  await db('form_submissions')
    .where({ account_id: accountId, id })
    .update({ contact_id: contactId, processed_at: db.fn.now(), updated_at: db.fn.now() });
}

export interface SubmissionFilter {
  formLabel?: string;
  source?: SubmissionSource;
  spam?: boolean;
  duplicate?: boolean;
  historical?: boolean;
  includeDeleted?: boolean;
  since?: Date;
  until?: Date;
  email?: string;
}

function filtered(db: Knex, accountId: string, f: SubmissionFilter) {
  const q = db<SubmissionRow>('form_submissions').where({ account_id: accountId });
  if (!f.includeDeleted) q.whereNull('deleted_at');
  if (f.formLabel !== undefined) q.where({ form_label: f.formLabel });
  if (f.source !== undefined) q.where({ source: f.source });
  if (f.spam !== undefined) q.where({ spam: f.spam });
  if (f.duplicate !== undefined) q.where({ duplicate: f.duplicate });
  if (f.historical !== undefined) q.where({ historical: f.historical });
  if (f.since) q.where('submitted_at', '>=', f.since);
  if (f.until) q.where('submitted_at', '<', f.until);
  // Matches the partial index form_submissions_email (account_id, lower(email)).
  if (f.email !== undefined) q.whereNotNull('email').whereRaw('lower(email) = lower(?)', [f.email]);
  return q;
}

/** A page of the account's rows, newest submission first. */
export async function listSubmissions(db: Knex, accountId: string, f: SubmissionFilter, page: Page) {
  const [rows, [{ count }]] = await Promise.all([
    filtered(db, accountId, f)
      .orderBy([
        { column: 'submitted_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)),
    filtered(db, accountId, f).count({ count: '*' }),
  ]);
  return { rows: rows as SubmissionRow[], total: Number(count) };
}

export async function findSubmission(db: Knex, accountId: string, id: string): Promise<SubmissionRow | undefined> {
  return db<SubmissionRow>('form_submissions').where({ account_id: accountId, id }).first();
}

/** Soft delete: stamps deleted_at once (a second delete keeps the first stamp); undefined when the account has no such row. */
export async function softDeleteSubmission(db: Knex, accountId: string, id: string): Promise<SubmissionRow | undefined> {
  const [row] = await db<SubmissionRow>('form_submissions')
    .where({ account_id: accountId, id })
    .update({ deleted_at: db.raw('coalesce(deleted_at, now())'), updated_at: db.fn.now() })
    .returning('*');
  return row as SubmissionRow | undefined;
}

/**
 * A historical (backfilled) platform row of this form label submitted at exactly this time: the same submission a
 * delivery without an id of its own describes (doc2 derives its id from the same two values).
 */
export async function findHistoricalAt(
  db: Knex,
  accountId: string,
  formLabel: string,
  submittedAt: Date,
): Promise<SubmissionRow | undefined> {
  return db<SubmissionRow>('form_submissions')
    .where({ account_id: accountId, source: 'platform', historical: true, form_label: formLabel, submitted_at: submittedAt })
    .orderBy('created_at')
    .first();
}
