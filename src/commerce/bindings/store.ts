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

export async function findSettings(db: Knex, accountId: string, projectId: string): Promise<ProjectSettingsRow | undefined> {
  return db('project_commerce_settings').where({ account_id: accountId, project_id: projectId }).first();
}

export type SettingsFields = Pick<ProjectSettingsRow, 'override_mode' | 'connection_id' | 'storefront_api_version'>;

/**
 * Writes the settings of the account's project (the caller has checked the account owns it). The upsert's arbiter
 * is the table's one unique key, project_id, so concurrent first writes end as one row with the last one's fields.
 * Undefined only if the project's row belongs to another account, which the project's ownership rules out.
 */
export async function saveSettings(
  db: Knex,
  accountId: string,
  projectId: string,
  fields: SettingsFields,
): Promise<ProjectSettingsRow | undefined> {
  const [row] = await db('project_commerce_settings')
    .insert({ account_id: accountId, project_id: projectId, ...fields })
    .onConflict('project_id')
    .merge({ ...fields, updated_at: db.fn.now() })
    .where('project_commerce_settings.account_id', accountId)
    .returning('*');
  return row;
}
