import type { Knex } from '../db/knex';

export type ProjectKind = 'service_hosted' | 'platform_hosted';
export type ContentSource = 'native' | 'site_platform';

export interface ProjectRow {
  id: string;
  account_id: string;
  name: string;
  host: string | null;
  kind: ProjectKind;
  content_source: ContentSource;
  created_at: Date;
  updated_at: Date;
}

export async function findProject(db: Knex, accountId: string, projectId: string): Promise<ProjectRow | undefined> {
  return db<ProjectRow>('projects').where({ account_id: accountId, id: projectId }).first();
}

export interface NewProject {
  name: string;
  host?: string | null;
  kind: ProjectKind;
  content_source?: ContentSource;
}

export async function insertProject(db: Knex, accountId: string, fields: NewProject): Promise<ProjectRow> {
  const [row] = await db<ProjectRow>('projects').insert({ account_id: accountId, ...fields }).returning('*');
  return row;
}
