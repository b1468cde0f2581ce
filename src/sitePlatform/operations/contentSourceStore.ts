import type { Knex } from '../../db/knex';

/**
 * The site platform's bookkeeping of a project's content source: the platform site its CMS content lives on, and, for
 * a project that fell back to the native CMS when its connection went away, the site to restore. Which CMS is the
 * source is the project's own `content_source` (projects service). One row per project (keyed by project id).
 */
export interface ContentSourceRow {
  project_id: string;
  account_id: string;
  site_id: string | null;
  reverted_site_id: string | null;
  reverted_at: Date | null;
}

const TABLE = 'site_platform_content_sources';

export async function findContentSourceRow(db: Knex, accountId: string, projectId: string): Promise<ContentSourceRow | undefined> {
  return db<ContentSourceRow>(TABLE).where({ account_id: accountId, project_id: projectId }).first();
}

export async function contentSourceRowsOf(db: Knex, accountId: string, projectIds: string[]): Promise<ContentSourceRow[]> {
  if (projectIds.length === 0) return [];
  return db<ContentSourceRow>(TABLE).where({ account_id: accountId }).whereIn('project_id', projectIds);
}

/** Projects of the account that fell back to the native CMS and remember a site to restore. */
export async function revertedContentSources(db: Knex, accountId: string): Promise<ContentSourceRow[]> {
  return db<ContentSourceRow>(TABLE).where({ account_id: accountId }).whereNotNull('reverted_at');
}

/** Records the site of a project switched by hand (and forgets any revert). */
export async function saveContentSourceSite(db: Knex, accountId: string, projectId: string, siteId: string | null): Promise<void> {
  await db(TABLE)
    .insert({
      project_id: projectId,
      account_id: accountId,
      site_id: siteId,
      reverted_site_id: null,
      reverted_at: null,
      updated_at: db.fn.now(),
    })
    .onConflict(['project_id'])
    .merge(['site_id', 'reverted_site_id', 'reverted_at', 'updated_at']);
}

export async function markContentSourceReverted(db: Knex, accountId: string, projectId: string, siteId: string | null): Promise<void> {
  await db(TABLE)
    .where({ account_id: accountId, project_id: projectId })
    .update({ site_id: null, reverted_site_id: siteId, reverted_at: db.fn.now(), updated_at: db.fn.now() });
}

export async function markContentSourceRestored(db: Knex, accountId: string, projectId: string, siteId: string): Promise<void> {
  await db(TABLE)
    .where({ account_id: accountId, project_id: projectId })
    .update({ site_id: siteId, reverted_site_id: null, reverted_at: null, updated_at: db.fn.now() });
}
