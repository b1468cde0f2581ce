import type { Knex } from '../../db/knex';
import type { SitePlatformDeps } from '../connections/deps';
import { resolveCredentials } from '../connections/resolve';

export type Provider = 'native' | 'site_platform';

export async function contentSourceOf(db: Knex, accountId: string, projectId: string): Promise<{ provider: Provider; site_id: string | null; reverted_at: Date | null }> {
  const row = await db('site_platform_content_sources').where({ project_id: projectId, account_id: accountId }).first();
  return { provider: row?.provider ?? 'native', site_id: row?.site_id ?? null, reverted_at: row?.reverted_at ?? null };
}

export async function setContentSource(db: Knex, accountId: string, projectId: string, provider: Provider, siteId: string | null): Promise<void> {
  await db('site_platform_content_sources')
    .insert({ project_id: projectId, account_id: accountId, provider, site_id: provider === 'native' ? null : siteId, reverted_site_id: null, reverted_at: null, updated_at: db.fn.now() })
    .onConflict(['account_id', 'project_id']).merge(['provider', 'site_id', 'reverted_site_id', 'reverted_at', 'updated_at']);
}

/**
 * The CMS capabilities read (doc2, What the service does 7). `provider` names the content source (native until
 * project_cms_provider_set switches it); `external_platform` names the host, `site_platform` whenever a connection
 * resolves for the project, whatever the content source; `project_type` is `external_site` for such a project and
 * `native_site` otherwise. `can_publish_items_to_site` is the refusal rule: only with the platform CMS as source.
 */
export async function cmsCapabilities(deps: SitePlatformDeps, accountId: string, projectId: string) {
  const source = await contentSourceOf(deps.db, accountId, projectId);
  const creds = await resolveCredentials(deps, accountId, { projectId });
  const hosted = creds !== null;
  return {
    project_id: projectId,
    provider: source.provider,
    external_platform: hosted ? 'site_platform' : null,
    project_type: hosted ? 'external_site' : 'native_site',
    site_id: source.site_id ?? creds?.siteId ?? null,
    can_publish_items_to_site: source.provider === 'site_platform',
    // Set while the project sits on the native CMS because its connection went away; a connect that reaches the site restores it.
    reverted_at: source.reverted_at ? new Date(source.reverted_at).toISOString() : null,
  };
}
