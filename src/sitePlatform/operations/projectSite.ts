import type { SitePlatformDeps } from '../connections/deps';
import { resolveCredentials } from '../connections/resolve';
import { findBinding, findSite } from '../connections/store';
import { contentSourceOf } from './contentSource';
import { siteDomainOf } from './siteDomain';

export interface ProjectSite {
  siteId: string;
  /** The host the site is served on (siteDomainOf), null when its row is gone or knows no domain. */
  domain: string | null;
  /** A live connection of the account reaches the site for this project (its pages can be read now). */
  connected: boolean;
}

/**
 * The platform site a project's pages live on: the content source's site, else the one its credentials resolve to, else
 * the site its binding names (kept even while the connection is gone, so the page index can still be read). Null when
 * the project names no site (or its binding is disabled and nothing else names one).
 */
export async function projectSiteOf(deps: SitePlatformDeps, accountId: string, projectId: string): Promise<ProjectSite | null> {
  const [source, creds, binding] = await Promise.all([
    contentSourceOf(deps.db, accountId, projectId),
    resolveCredentials(deps, accountId, { projectId }),
    findBinding(deps.db, accountId, projectId),
  ]);
  const bound = binding && binding.override_mode !== 'disabled' ? binding.site_id : null;
  const siteId = source.site_id ?? creds?.siteId ?? bound ?? null;
  if (!siteId) return null;
  const site = await findSite(deps.db, accountId, siteId);
  return { siteId, domain: site ? siteDomainOf(site) : null, connected: creds !== null };
}
