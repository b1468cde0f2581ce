import type { AuthContext } from '../../auth/types';
import type { Knex } from '../../db/knex';
import { projectNotFound, projectOwner, requireOwnProject } from '../../projects/service';

/**
 * The account a builder-route caller acts for on a project: a session's own account (404 project_not_found unless the
 * project is its own); for the service secret, the project's owner. A project belongs to exactly one account, so there
 * is nothing to disambiguate (the former 409 project_account_ambiguous can no longer arise). X-Account-Id, when sent,
 * must name that owner: another account is answered like an unknown project.
 */
export async function builderAccount(db: Knex, auth: AuthContext, projectId: string, namedAccount: string | undefined): Promise<string> {
  if (auth.kind === 'session') {
    await requireOwnProject(db, auth.accountId, projectId);
    return auth.accountId;
  }
  const owner = await projectOwner(db, projectId);
  if (!owner || (namedAccount !== undefined && namedAccount !== owner)) throw projectNotFound();
  return owner;
}
