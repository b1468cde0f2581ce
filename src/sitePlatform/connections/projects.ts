import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { findBindingAnyAccount, type BindingRow } from './store';

export const projectNotFound = () => new ApiError(404, 'project_not_found', 'no project with this id in your account');

/**
 * Projects live outside this service, so a project id is any uuid; it belongs to the first account that binds it.
 * A malformed id, or one bound on another account, behaves as missing (404).
 */
export async function requireOwnProject(db: Knex, accountId: string, projectId: string): Promise<BindingRow | undefined> {
  if (!isUuid(projectId)) throw projectNotFound();
  const row = await findBindingAnyAccount(db, projectId);
  if (row && row.account_id !== accountId) throw projectNotFound();
  return row;
}
