import type { Knex } from '../db/knex';
import { ApiError } from '../http/errors';
import { isUuid } from '../http/ids';
import { findProject, type ProjectRow } from './store';

export type { ContentSource, ProjectKind, ProjectRow } from './store';

export const projectNotFound = () => new ApiError(404, 'project_not_found', 'no project with this id in your account');

/** The account's project, or undefined for a malformed, unknown or other account's id (they look the same). */
export async function findOwnProject(db: Knex, accountId: string, projectId: string): Promise<ProjectRow | undefined> {
  if (!isUuid(projectId)) return undefined;
  return findProject(db, accountId, projectId);
}

/** The one ownership check every area uses for a project id: 404 `project_not_found` unless the account owns it. */
export async function requireOwnProject(db: Knex, accountId: string, projectId: string): Promise<ProjectRow> {
  const project = await findOwnProject(db, accountId, projectId);
  if (!project) throw projectNotFound();
  return project;
}
