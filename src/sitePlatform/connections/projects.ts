import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { findBinding, type BindingRow } from './store';

export const projectNotFound = () => new ApiError(404, 'project_not_found', 'no project with this id in your account');

/**
 * Projects live outside this service, so a project id is any uuid, and each account has its own project of that id
 * (bindings are keyed by account and project). Answers the account's binding, if any; a malformed id is 404.
 */
export async function requireOwnProject(db: Knex, accountId: string, projectId: string): Promise<BindingRow | undefined> {
  if (!isUuid(projectId)) throw projectNotFound();
  return findBinding(db, accountId, projectId);
}
