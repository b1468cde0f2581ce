import type { Knex } from '../db/knex';
import { ApiError } from '../http/errors';
import { isUuid } from '../http/ids';
import type { Page } from '../http/pagination';
import * as store from './store';
import type { ContentSource, NewProject, ProjectChanges, ProjectRow } from './store';
import { isForeignKeyViolation } from '../db/errors';

export type { ContentSource, ProjectKind, ProjectRow } from './store';

export const projectNotFound = () => new ApiError(404, 'project_not_found', 'no project with this id in your account');

/** The account's project, or undefined for a malformed, unknown or other account's id (they look the same). */
export async function findOwnProject(db: Knex, accountId: string, projectId: string): Promise<ProjectRow | undefined> {
  if (!isUuid(projectId)) return undefined;
  return store.findProject(db, accountId, projectId);
}

/** The account's projects among `projectIds`, by id, in one query (malformed ids are skipped); for lists that show many. */
export async function findOwnProjects(db: Knex, accountId: string, projectIds: string[]): Promise<Map<string, ProjectRow>> {
  const ids = [...new Set(projectIds.filter(isUuid))];
  return new Map((await store.findProjects(db, accountId, ids)).map((p) => [p.id, p]));
}

/** The one ownership check every area uses for a project id: 404 `project_not_found` unless the account owns it. */
export async function requireOwnProject(db: Knex, accountId: string, projectId: string): Promise<ProjectRow> {
  const project = await findOwnProject(db, accountId, projectId);
  if (!project) throw projectNotFound();
  return project;
}

export const createProject = (db: Knex, accountId: string, fields: NewProject): Promise<ProjectRow> =>
  store.insertProject(db, accountId, fields);

export const listProjects = (db: Knex, accountId: string, page: Page) => store.listProjects(db, accountId, page);

export async function updateProject(db: Knex, accountId: string, projectId: string, changes: ProjectChanges): Promise<ProjectRow> {
  if (!isUuid(projectId)) throw projectNotFound();
  const row =
    Object.keys(changes).length === 0
      ? await store.findProject(db, accountId, projectId)
      : await store.updateProject(db, accountId, projectId, changes);
  if (!row) throw projectNotFound();
  return row;
}

/**
 * Deletes a project and what hangs off it (site-platform binding and content source, commerce settings, deployments)
 * by cascade. Refused with 409 `project_in_use` while content items link to it, so no published item is left pointing
 * at a project that no longer exists; unlink them (or delete them) first.
 */
export async function deleteProject(db: Knex, accountId: string, projectId: string): Promise<void> {
  await requireOwnProject(db, accountId, projectId);
  try {
    if (!(await store.deleteProject(db, accountId, projectId))) throw projectNotFound();
  } catch (err) {
    // content_items.cms_project_id references the project: the delete itself is the check, so no link can slip in between.
    if (isForeignKeyViolation(err, 'content_items_cms_project_fk')) {
      throw new ApiError(409, 'project_in_use', 'content items link to this project through cms_link; unlink them first');
    }
    throw err;
  }
}

/** The project's content source (native until project_cms_provider_set switches it); undefined when not the account's. */
export async function contentSourceOfProject(db: Knex, accountId: string, projectId: string): Promise<ContentSource | undefined> {
  return (await findOwnProject(db, accountId, projectId))?.content_source;
}

/** Sets the content source of an own project (404 otherwise). */
export async function setProjectContentSource(db: Knex, accountId: string, projectId: string, source: ContentSource): Promise<void> {
  await requireOwnProject(db, accountId, projectId);
  await store.updateProject(db, accountId, projectId, { content_source: source });
}

/** Compare-and-set of the content source, for the disconnect fallback and its restore; answers whether it changed. */
export const switchProjectContentSource = (db: Knex, accountId: string, projectId: string, from: ContentSource, to: ContentSource) =>
  store.switchContentSource(db, accountId, projectId, from, to);

/** Ids of the account's projects whose content source is `source`. */
export const projectIdsWithContentSource = (db: Knex, accountId: string, source: ContentSource) =>
  store.projectIdsWithContentSource(db, accountId, source);

/**
 * The owner of a project id, for callers that act for no account of their own (the builder routes' service secret).
 * A project belongs to exactly one account, so the answer is never ambiguous; undefined for a malformed or unknown id.
 */
export async function projectOwner(db: Knex, projectId: string): Promise<string | undefined> {
  if (!isUuid(projectId)) return undefined;
  return store.findProjectOwner(db, projectId);
}
