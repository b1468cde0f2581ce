import type { Knex } from '../../db/knex';

// The forms ledger read for content analytics. Every query filters on the account, and the contact lookups match
// the account too, so another account's row or contact never counts.

/** Submitted-at bounds: `from` inclusive, `to` exclusive; either may be open. */
export interface LedgerRange {
  from?: Date | null;
  to?: Date | null;
}

export interface PathLeadRow {
  page_path: string;
  leads: number;
  contacts: number;
}

/**
 * The CRM contact a ledger row resolves to: its linked contact while that still exists, else the account's contact
 * with the row's email (historical rows are never linked). SQL fragment over a row aliased `s`.
 */
export const RESOLVED_CONTACT_SQL = `coalesce(
  (select c.id from crm_contacts c where c.account_id = s.account_id and c.id = s.contact_id),
  (select c.id from crm_contacts c where c.account_id = s.account_id and s.email is not null and lower(c.email) = lower(s.email)))`;

/** The rows that count as leads: not spam, not a duplicate, not deleted. SQL condition over a row aliased `s`. */
export const COUNTED_ROW_SQL = `not s.spam and not s.duplicate and s.deleted_at is null`;

/** Leads and distinct resolved contacts per page path of one project, for the paths that have any (one statement). */
export async function leadsByPath(
  db: Knex,
  accountId: string,
  projectId: string,
  paths: string[],
  range: LedgerRange,
): Promise<PathLeadRow[]> {
  const result = await db.raw(
    `select s.page_path, count(*)::int as leads, count(distinct ${RESOLVED_CONTACT_SQL})::int as contacts
       from form_submissions s
      where s.account_id = :account and s.project_id = :project and s.page_path = any(:paths::text[])
        and ${COUNTED_ROW_SQL}
        and (:from::timestamptz is null or s.submitted_at >= :from::timestamptz)
        and (:to::timestamptz is null or s.submitted_at < :to::timestamptz)
      group by s.page_path`,
    {
      account: accountId,
      project: projectId,
      paths,
      from: range.from?.toISOString() ?? null,
      to: range.to?.toISOString() ?? null,
    },
  );
  return result.rows as PathLeadRow[];
}

export interface ProjectPathLeadRow extends PathLeadRow {
  project_id: string;
}

/** leadsByPath for many (project, path) pairs at once: one statement for a whole views batch. */
export async function leadsByProjectPath(
  db: Knex,
  accountId: string,
  pairs: Array<{ projectId: string; path: string }>,
  range: LedgerRange,
): Promise<ProjectPathLeadRow[]> {
  if (pairs.length === 0) return [];
  const result = await db.raw(
    `select s.project_id, s.page_path, count(*)::int as leads, count(distinct ${RESOLVED_CONTACT_SQL})::int as contacts
       from form_submissions s
       join unnest(:projects::uuid[], :paths::text[]) as p(project_id, page_path)
         on s.project_id = p.project_id and s.page_path = p.page_path
      where s.account_id = :account and ${COUNTED_ROW_SQL}
        and (:from::timestamptz is null or s.submitted_at >= :from::timestamptz)
        and (:to::timestamptz is null or s.submitted_at < :to::timestamptz)
      group by s.project_id, s.page_path`,
    {
      account: accountId,
      projects: pairs.map((p) => p.projectId),
      paths: pairs.map((p) => p.path),
      from: range.from?.toISOString() ?? null,
      to: range.to?.toISOString() ?? null,
    },
  );
  return result.rows as ProjectPathLeadRow[];
}
