import type { SitePlatformDeps } from './deps';
import { pickConnection } from './resolve';

interface PlatformCmsProject { project_id: string; site_id: string | null }

const platformCmsProjects = (deps: SitePlatformDeps, accountId: string): Promise<PlatformCmsProject[]> =>
  deps.db('site_platform_content_sources').where({ account_id: accountId, provider: 'site_platform' }).select('project_id', 'site_id');

/** The account's platform-CMS projects whose site resolves to this connection now (taken before it is disconnected). */
export async function projectsResolvingTo(deps: SitePlatformDeps, accountId: string, connectionId: string): Promise<PlatformCmsProject[]> {
  const out: PlatformCmsProject[] = [];
  for (const row of await platformCmsProjects(deps, accountId)) {
    const picked = await pickConnection(deps, accountId, row.project_id, row.site_id ?? undefined);
    if (picked?.row.id === connectionId) out.push(row);
  }
  return out;
}

/**
 * Of the projects that resolved to a connection just disconnected, those no remaining connection reaches fall back to
 * the native CMS, remembering the site (doc2 States: "project falls back to native CMS"). A project another connection
 * still reaches (an inherit project on the default, an override's project on the default) is left alone. Answers the
 * reverted project ids.
 */
export async function revertUnreachableProjects(deps: SitePlatformDeps, accountId: string, candidates: PlatformCmsProject[]): Promise<string[]> {
  const reverted: string[] = [];
  for (const row of candidates) {
    if (await pickConnection(deps, accountId, row.project_id, row.site_id ?? undefined)) continue;
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
    if (!await pickConnection(deps, accountId, row.project_id, row.reverted_site_id)) continue;
    const changed = await deps.db('site_platform_content_sources')
      .where({ account_id: accountId, project_id: row.project_id, provider: 'native' }).whereNotNull('reverted_at')
      .update({ provider: 'site_platform', site_id: row.reverted_site_id, reverted_site_id: null, reverted_at: null, updated_at: deps.db.fn.now() });
    if (changed) restored.push(row.project_id);
  }
  return restored;
}
