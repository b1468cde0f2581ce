import { projectIdsWithContentSource, switchProjectContentSource } from '../../projects/service';
import {
  contentSourceRowsOf,
  markContentSourceReverted,
  markContentSourceRestored,
  revertedContentSources,
} from '../operations/contentSourceStore';
import type { SitePlatformDeps } from './deps';
import { pickConnection } from './resolve';

interface PlatformCmsProject {
  project_id: string;
  site_id: string | null;
}

async function platformCmsProjects(deps: SitePlatformDeps, accountId: string): Promise<PlatformCmsProject[]> {
  const ids = await projectIdsWithContentSource(deps.db, accountId, 'site_platform');
  const sites = new Map((await contentSourceRowsOf(deps.db, accountId, ids)).map((r) => [r.project_id, r.site_id]));
  return ids.map((id) => ({ project_id: id, site_id: sites.get(id) ?? null }));
}

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
export async function revertUnreachableProjects(
  deps: SitePlatformDeps,
  accountId: string,
  candidates: PlatformCmsProject[],
): Promise<string[]> {
  const reverted: string[] = [];
  for (const row of candidates) {
    if (await pickConnection(deps, accountId, row.project_id, row.site_id ?? undefined)) continue;
    const changed = await deps.db.transaction(async (trx) => {
      if (!(await switchProjectContentSource(trx, accountId, row.project_id, 'site_platform', 'native'))) return false;
      await markContentSourceReverted(trx, accountId, row.project_id, row.site_id);
      return true;
    });
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
  const restored: string[] = [];
  for (const row of await revertedContentSources(deps.db, accountId)) {
    const siteId = row.reverted_site_id;
    if (!siteId) continue;
    if (!(await pickConnection(deps, accountId, row.project_id, siteId))) continue;
    const changed = await deps.db.transaction(async (trx) => {
      if (!(await switchProjectContentSource(trx, accountId, row.project_id, 'native', 'site_platform'))) return false;
      await markContentSourceRestored(trx, accountId, row.project_id, siteId);
      return true;
    });
    if (changed) restored.push(row.project_id);
  }
  return restored;
}
