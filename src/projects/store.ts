import type { Knex } from '../db/knex';
import { offsetOf, type Page } from '../http/pagination';

export type ProjectKind = 'service_hosted' | 'platform_hosted';
export type ContentSource = 'native' | 'site_platform';

export interface ProjectRow {
  id: string;
  account_id: string;
  name: string;
  host: string | null;
  kind: ProjectKind;
  content_source: ContentSource;
  /** The project's site in the web-analytics collector (Plausible `site_id`); null: none. */
  analytics_site_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function findProject(db: Knex, accountId: string, projectId: string): Promise<ProjectRow | undefined> {
  return db<ProjectRow>('projects').where({ account_id: accountId, id: projectId }).first();
}

/** The account's projects among `projectIds` (ids of other accounts are simply not found). */
export async function findProjects(db: Knex, accountId: string, projectIds: string[]): Promise<ProjectRow[]> {
  if (projectIds.length === 0) return [];
  return db<ProjectRow>('projects').where({ account_id: accountId }).whereIn('id', projectIds);
}

export interface NewProject {
  name: string;
  host?: string | null;
  kind: ProjectKind;
  content_source?: ContentSource;
}

export async function insertProject(db: Knex, accountId: string, fields: NewProject): Promise<ProjectRow> {
  const [row] = await db<ProjectRow>('projects')
    .insert({ account_id: accountId, ...fields })
    .returning('*');
  return row;
}

/** A page of the account's projects, newest first, and how many there are in all. */
export async function listProjects(db: Knex, accountId: string, page: Page): Promise<{ rows: ProjectRow[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    db<ProjectRow>('projects')
      .where({ account_id: accountId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)),
    db('projects').where({ account_id: accountId }).count<{ count: string }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}

export type ProjectChanges = Partial<Pick<ProjectRow, 'name' | 'host' | 'kind' | 'content_source' | 'analytics_site_id'>>;

export async function updateProject(
  db: Knex,
  accountId: string,
  projectId: string,
  changes: ProjectChanges,
): Promise<ProjectRow | undefined> {
  const [row] = await db<ProjectRow>('projects')
    .where({ account_id: accountId, id: projectId })
    .update({ ...changes, updated_at: db.fn.now() } as never)
    .returning('*');
  return row;
}

/** Switches the content source only when it is still `from`; answers whether it changed (a compare-and-set). */
export async function switchContentSource(
  db: Knex,
  accountId: string,
  projectId: string,
  from: ContentSource,
  to: ContentSource,
): Promise<boolean> {
  const changed = await db('projects')
    .where({ account_id: accountId, id: projectId, content_source: from })
    .update({ content_source: to, updated_at: db.fn.now() });
  return changed > 0;
}

export async function projectIdsWithContentSource(db: Knex, accountId: string, source: ContentSource): Promise<string[]> {
  const rows: Array<{ id: string }> = await db('projects').where({ account_id: accountId, content_source: source }).select('id');
  return rows.map((r) => r.id);
}

/** Deletes the project; rows hanging off it (bindings, content sources, commerce settings, deployments) go by cascade. */
export async function deleteProject(db: Knex, accountId: string, projectId: string): Promise<boolean> {
  return (await db('projects').where({ account_id: accountId, id: projectId }).del()) > 0;
}

/** The account that owns a project id, whoever asks (the service secret acts for the project's owner). */
export async function findProjectOwner(db: Knex, projectId: string): Promise<string | undefined> {
  const row: { account_id: string } | undefined = await db('projects').where({ id: projectId }).first('account_id');
  return row?.account_id;
}
