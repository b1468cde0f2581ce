import { ApiError } from '../../http/errors';
import { findOwnProject } from '../../projects/service';
import type { SitePlatformDeps } from '../../sitePlatform/connections';
import { cmsCapabilities, runOperation } from '../../sitePlatform/operations';
import { markSnapshotsStale } from '../../sitePlatform/operations/cmsSnapshots';
import { invalidReference } from './errors';

interface LinkTarget {
  project_id: string;
  collection_id: string;
}

const projectNotOwned = () => invalidReference('cms_link.project_id', 'website project');
const collectionMissing = () => invalidReference('cms_link.collection_id', 'CMS collection on the site the project resolves to');
const projectWithoutSite = (projectId: string) => {
  const message = `cms_link.project_id ${projectId} resolves to no site platform site (not connected, or its connection is disabled), so no collection can be linked`;
  return new ApiError(400, 'invalid_reference', message, {
    details: { field: 'cms_link.collection_id', reason: 'project_has_no_site' },
    errors: [{ path: 'body.cms_link.collection_id', message }],
  });
};

/**
 * Checks a cms_link a write sends, unless it names the same project and collection as the stored one (an editor's
 * echo, or only item_id changing: nothing new is referenced, and a save never waits on the platform). Runs before the
 * write's transaction, so no row is locked while the platform answers.
 */
export async function checkSentCmsLink(
  deps: SitePlatformDeps,
  accountId: string,
  stored: LinkTarget | null,
  sent: LinkTarget | null | undefined,
): Promise<void> {
  if (!sent) return;
  if (stored && stored.project_id === sent.project_id && stored.collection_id === sent.collection_id) return;
  await assertCmsLinkResolves(deps, accountId, sent);
}

/**
 * A link must name a website project of the account and a collection on the site that project resolves to
 * (400 invalid_reference otherwise; another account's project answers like an unknown one). The project is a row of
 * `projects` the account owns (the projects service says so). The site is the one publish-to-site would use (the
 * content source's, else the binding's, as the site platform's CMS capabilities read answers); the collection list is
 * read through the site platform's snapshot cache. Platform failures keep their coded errors
 * (412, 429, 502 platform_upstream, 504 platform_timeout).
 */
export async function assertCmsLinkResolves(deps: SitePlatformDeps, accountId: string, link: LinkTarget): Promise<void> {
  if (!(await findOwnProject(deps.db, accountId, link.project_id))) throw projectNotOwned();
  const capabilities = await cmsCapabilities(deps, accountId, link.project_id);
  const siteId = capabilities.site_id;
  if (!siteId || !capabilities.site_platform_connected) throw projectWithoutSite(link.project_id);

  const listed = await collectionsOfSite(deps, accountId, link.project_id, siteId);
  if (listed.ids.includes(link.collection_id)) return;
  // A collection made on the platform since the list was cached: read the list once more before refusing.
  if (!listed.cached) throw collectionMissing();
  await markSnapshotsStale(deps.db, siteId);
  if (!(await collectionsOfSite(deps, accountId, link.project_id, siteId)).ids.includes(link.collection_id)) throw collectionMissing();
}

async function collectionsOfSite(
  deps: SitePlatformDeps,
  accountId: string,
  projectId: string,
  siteId: string,
): Promise<{ ids: string[]; cached: boolean }> {
  try {
    const { result, snapshot } = await runOperation(deps, {
      accountId,
      projectId,
      method: 'GET',
      action: 'cms_collection_list',
      params: { site_id: siteId },
      // Reads are never audited, so no actor is looked up.
      actor: async () => 'system',
    });
    const collections = (result as { collections?: Array<{ id?: unknown }> } | null)?.collections ?? [];
    return { ids: collections.map((c) => c.id).filter((id): id is string => typeof id === 'string'), cached: snapshot?.cached === true };
  } catch (err) {
    // The site is not the account's, or the platform no longer shows it: nothing can be linked on it.
    if (err instanceof ApiError && err.status === 404) throw collectionMissing();
    throw err;
  }
}
