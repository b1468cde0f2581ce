import type { Knex } from '../../db/knex';
import { findOwnProject, findOwnProjects, type ProjectRow } from '../../projects/service';
import type { ContentItem } from './contentItemJson';
import { siteEntryUrlOf } from './urlStore';

export const URL_SOURCES = ['site_platform_cms', 'service_hosted', 'canonical_url'] as const;
export type UrlSource = (typeof URL_SOURCES)[number];

export interface ItemUrl {
  /** Public URL of the item on its site, or null while none is known. */
  url: string | null;
  /** Where `url` came from, null with a null url. */
  url_source: UrlSource | null;
}

/** What the URL rule reads of an item. */
export interface UrlFacts {
  status: string;
  slug: string | null;
  content_type: string;
  canonical_url: string | null;
  /** content_items.site_entry_url: stamped each time the item is published to the platform CMS. */
  site_entry_url: string | null;
}

export type UrlProject = Pick<ProjectRow, 'kind' | 'host' | 'content_source'>;

/** The rule as the OpenAPI text states it (agent get, lists and site links quote it). */
export const URL_RULE =
  'The live URL of a published item, first found of: (1) `site_platform_cms`: the platform CMS entry it was published to ' +
  '(site domain — first custom domain, else `<short_name>.webflow.io` — + collection slug + item slug); (2) `service_hosted`: its ' +
  'cms_link project is service-hosted with a host and the native CMS as content source, and the item has a slug: ' +
  "`https://<host>/blog/<slug>` (`/case-studies/<slug>` for content_type `case_study`); (3) `canonical_url`: the item's " +
  'canonical_url (whatever its status). Null when none applies: the item is not published and has no canonical_url, it was ' +
  'never published to the platform CMS (or its project uses that CMS but the publish has not stamped the entry yet), its ' +
  'project has no host or is platform-hosted, or it has no slug.';

/** Whether the project serves its native-CMS posts itself at `https://<host>/blog/<slug>`. */
export function servesNativeRoutes(project: UrlProject | undefined): project is UrlProject & { host: string } {
  return project?.kind === 'service_hosted' && !!project.host && project.content_source === 'native';
}

/** The route a service-hosted site serves an item at. */
export function serviceHostedPath(contentType: string, slug: string): string {
  return `${contentType === 'case_study' ? '/case-studies' : '/blog'}/${encodeURIComponent(slug)}`;
}

/** The URL rule (URL_RULE) for one item and its cms_link project (undefined when unlinked). */
export function resolveItemUrl(item: UrlFacts, project: UrlProject | undefined): ItemUrl {
  const published = item.status === 'published';
  if (published && item.site_entry_url) return { url: item.site_entry_url, url_source: 'site_platform_cms' };
  if (published && item.slug && servesNativeRoutes(project)) {
    return { url: `https://${project.host}${serviceHostedPath(item.content_type, item.slug)}`, url_source: 'service_hosted' };
  }
  if (item.canonical_url) return { url: item.canonical_url, url_source: 'canonical_url' };
  return { url: null, url_source: null };
}

/** The agent get's url and url_source: the item's stamped entry URL and its project, read by id (two small reads). */
export async function urlOf(db: Knex, accountId: string, item: ContentItem): Promise<ItemUrl> {
  const [siteEntryUrl, project] = await Promise.all([
    siteEntryUrlOf(db, accountId, item.id),
    item.cms_link ? findOwnProject(db, accountId, item.cms_link.project_id) : undefined,
  ]);
  return resolveItemUrl({ ...item, site_entry_url: siteEntryUrl }, project);
}

/** URLs of a page of items (rows as read, with site_entry_url): their projects are loaded in one query, not one per item. */
export async function urlsOf(
  db: Knex,
  accountId: string,
  items: Array<Omit<UrlFacts, 'site_entry_url'> & { site_entry_url?: string | null; cms_link: { project_id: string } | null }>,
): Promise<ItemUrl[]> {
  const projectIds = items.flatMap((i) => (i.cms_link ? [i.cms_link.project_id] : []));
  const projects = projectIds.length ? await findOwnProjects(db, accountId, projectIds) : new Map<string, ProjectRow>();
  return items.map((i) =>
    resolveItemUrl({ ...i, site_entry_url: i.site_entry_url ?? null }, i.cms_link ? projects.get(i.cms_link.project_id) : undefined),
  );
}
