import type { Knex } from '../../db/knex';
import { contentSourceOfProject, requireOwnProject, setProjectContentSource, type ContentSource } from '../../projects/service';
import type { SitePlatformDeps } from '../connections/deps';
import { resolveCredentials } from '../connections/resolve';
import { findContentSourceRow, saveContentSourceSite } from './contentSourceStore';

export type Provider = ContentSource;

/** The project's content source (the project's own column) with the platform site and revert bookkeeping kept here. */
export async function contentSourceOf(
  db: Knex,
  accountId: string,
  projectId: string,
): Promise<{ provider: Provider; site_id: string | null; reverted_at: Date | null }> {
  const [provider, row] = await Promise.all([
    contentSourceOfProject(db, accountId, projectId),
    findContentSourceRow(db, accountId, projectId),
  ]);
  return {
    provider: provider ?? 'native',
    site_id: provider === 'site_platform' ? (row?.site_id ?? null) : null,
    reverted_at: row?.reverted_at ?? null,
  };
}

/** Switches an own project's content source (404 project_not_found otherwise) and records its site; clears any revert. */
export async function setContentSource(
  db: Knex,
  accountId: string,
  projectId: string,
  provider: Provider,
  siteId: string | null,
): Promise<void> {
  await db.transaction(async (trx) => {
    await setProjectContentSource(trx, accountId, projectId, provider);
    await saveContentSourceSite(trx, accountId, projectId, provider === 'native' ? null : siteId);
  });
}

/**
 * The CMS capabilities read (doc2, What the service does 7). `provider` names the content source (native until
 * project_cms_provider_set switches it), not the host. `external_platform` and `project_type` name the host, from the
 * project's hosting: a `platform_hosted` project is an `external_site` on `site_platform`; a `service_hosted` one is a
 * `native_site` (the service renders it) with no external platform, even when its content comes from the platform's
 * CMS. `site_platform_connected` says whether a connection resolves for the project now; `can_publish_items_to_site` is
 * the refusal rule: only with the platform CMS as source.
 */
export async function cmsCapabilities(deps: SitePlatformDeps, accountId: string, projectId: string) {
  const [project, source, creds] = await Promise.all([
    requireOwnProject(deps.db, accountId, projectId),
    contentSourceOf(deps.db, accountId, projectId),
    resolveCredentials(deps, accountId, { projectId }),
  ]);
  const platformHosted = project.kind === 'platform_hosted';
  return {
    project_id: projectId,
    provider: source.provider,
    external_platform: platformHosted ? ('site_platform' as const) : null,
    project_type: platformHosted ? ('external_site' as const) : ('native_site' as const),
    site_id: source.site_id ?? creds?.siteId ?? null,
    site_platform_connected: creds !== null,
    can_publish_items_to_site: source.provider === 'site_platform',
    // Set while the project sits on the native CMS because its connection went away; a connect that reaches the site restores it.
    reverted_at: source.reverted_at ? new Date(source.reverted_at).toISOString() : null,
  };
}
