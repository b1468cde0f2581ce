import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { projectNotFound, requireOwnProject } from '../../projects/service';
import { findActiveDefault, findConnection, type ConnectionRow } from '../connections/store';
import { findSettings, saveSettings, type OverrideMode, type ProjectSettingsRow, type SettingsFields } from './store';

/** The settings the account saved for its project, if any; 404 `project_not_found` unless the account owns it. */
export async function getProjectSettings(db: Knex, accountId: string, projectId: string): Promise<ProjectSettingsRow | undefined> {
  await requireOwnProject(db, accountId, projectId);
  return findSettings(db, accountId, projectId);
}

/**
 * Replaces the project's settings: 404 `project_not_found` unless the account owns the project, 400
 * `invalid_reference` unless `connection_id` names a connection of the account. Nothing is written on either.
 */
export async function putProjectSettings(
  db: Knex,
  accountId: string,
  projectId: string,
  fields: SettingsFields,
): Promise<ProjectSettingsRow> {
  await requireOwnProject(db, accountId, projectId);
  if (fields.connection_id && !(isUuid(fields.connection_id) && (await findConnection(db, accountId, fields.connection_id)))) {
    throw new ApiError(400, 'invalid_reference', '`connection_id` names no commerce connection in your account', {
      details: { field: 'connection_id' },
    });
  }
  const row = await saveSettings(db, accountId, projectId, fields);
  if (!row) throw projectNotFound();
  return row;
}

export type ResolutionReason = 'disabled' | 'no_default_connection' | 'connection_disconnected' | null;

export interface ResolvedConnection {
  mode: OverrideMode;
  connection: ConnectionRow | null;
  /** Why `connection` is null; null when there is one. */
  reason: ResolutionReason;
}

/**
 * The shop a project uses: `inherit` (also a project without settings) → the account's connected default;
 * `override` → its own connection while connected; `disabled` → none. 404 `project_not_found` unless the account owns
 * the project, so it never answers for another account's project.
 */
export async function resolveProjectConnection(db: Knex, accountId: string, projectId: string): Promise<ResolvedConnection> {
  const settings = await getProjectSettings(db, accountId, projectId);
  const mode = settings?.override_mode ?? 'inherit';
  if (mode === 'disabled') return { mode, connection: null, reason: 'disabled' };
  if (mode === 'inherit') {
    const connection = await findActiveDefault(db, accountId);
    return { mode, connection: connection ?? null, reason: connection ? null : 'no_default_connection' };
  }
  const connection = settings?.connection_id ? await findConnection(db, accountId, settings.connection_id) : undefined;
  if (!connection || connection.disconnected_at) return { mode, connection: null, reason: 'connection_disconnected' };
  return { mode, connection, reason: null };
}
