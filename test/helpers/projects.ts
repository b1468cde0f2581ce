import { insertProject, type NewProject, type ProjectRow } from '../../src/projects/store';
import { harness } from './harness';

/** A website project of the account, made the way the API makes one; tests that take a project id start here. */
export async function newProject(accountId: string, fields: Partial<NewProject> = {}): Promise<ProjectRow> {
  return insertProject(harness().deps.db, accountId, { name: 'Test site', kind: 'platform_hosted', ...fields });
}

/** The id of a fresh project of the account. */
export async function newProjectId(accountId: string, fields: Partial<NewProject> = {}): Promise<string> {
  return (await newProject(accountId, fields)).id;
}
