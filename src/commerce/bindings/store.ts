import type { Knex } from '../../db/knex';

export type OverrideMode = 'inherit' | 'override' | 'disabled';

export interface ProjectSettingsRow {
  id: string;
  account_id: string;
  project_id: string;
  override_mode: OverrideMode;
  connection_id: string | null;
  storefront_api_version: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The project's settings row on any account (project_id is unique service-wide), to tell "not yours" from "unset". */
export async function findSettingsAnyAccount(db: Knex, projectId: string): Promise<ProjectSettingsRow | undefined> {
  return db('project_commerce_settings').where({ project_id: projectId }).first();
}

export async function findSettings(db: Knex, accountId: string, projectId: string): Promise<ProjectSettingsRow | undefined> {
  return db('project_commerce_settings').where({ account_id: accountId, project_id: projectId }).first();
}

export type SettingsFields = Pick<ProjectSettingsRow, 'override_mode' | 'connection_id' | 'storefront_api_version'>;

/** Writes the project's settings; undefined when the project is bound on another account. */
export async function saveSettings(db: Knex, accountId: string, projectId: string, fields: SettingsFields): Promise<ProjectSettingsRow | undefined> {
  const [row] = await db('project_commerce_settings')
    .insert({ account_id: accountId, project_id: projectId, ...fields })
    .onConflict('project_id')
    .merge({ ...fields, updated_at: db.fn.now() })
    .where('project_commerce_settings.account_id', accountId)
    .returning('*');
  return row;
}
