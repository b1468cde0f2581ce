import type { SitePlatformDeps } from './deps';
import { resolveCredentials } from './resolve';

/**
 * Projects whose content source is the platform CMS but whose site no connection reaches any more fall back to the
 * native CMS, remembering the site (doc2 States: "project falls back to native CMS"). Run after the account's
 * credential cache was busted. Answers the reverted project ids.
 */
export async function revertUnreachableProjects(deps: SitePlatformDeps, accountId: string): Promise<string[]> {
  const rows: Array<{ project_id: string; site_id: string | null }> = await deps.db('site_platform_content_sources')
    .where({ account_id: accountId, provider: 'site_platform' }).select('project_id', 'site_id');
  const reverted: string[] = [];
  for (const row of rows) {
    if (await resolveCredentials(deps, accountId, { projectId: row.project_id, siteId: row.site_id ?? undefined })) continue;
    const changed = await deps.db('site_platform_content_sources')
      .where({ account_id: accountId, project_id: row.project_id, provider: 'site_platform' })
      .update({ provider: 'native', site_id: null, reverted_site_id: row.site_id, reverted_at: deps.db.fn.now(), updated_at: deps.db.fn.now() });
    if (changed) reverted.push(row.project_id);
  }
  return reverted;
}

/**
 * The other half ("projects restored from native CMS" on connect): a reverted project whose site resolves again
 * returns to the platform CMS. A project switched by hand since it was reverted is left alone (reverted_at is cleared
 * by project_cms_provider_set). Answers the restored project ids.
 */
export async function restoreReachableProjects(deps: SitePlatformDeps, accountId: string): Promise<string[]> {
  const rows: Array<{ project_id: string; reverted_site_id: string | null }> = await deps.db('site_platform_content_sources')
    .where({ account_id: accountId, provider: 'native' }).whereNotNull('reverted_at').select('project_id', 'reverted_site_id');
  const restored: string[] = [];
  for (const row of rows) {
    if (!row.reverted_site_id) continue;
    if (!await resolveCredentials(deps, accountId, { projectId: row.project_id, siteId: row.reverted_site_id })) continue;
    const changed = await deps.db('site_platform_content_sources')
      .where({ account_id: accountId, project_id: row.project_id, provider: 'native' }).whereNotNull('reverted_at')
      .update({ provider: 'site_platform', site_id: row.reverted_site_id, reverted_site_id: null, reverted_at: null, updated_at: deps.db.fn.now() });
    if (changed) restored.push(row.project_id);
  }
  return restored;
}
