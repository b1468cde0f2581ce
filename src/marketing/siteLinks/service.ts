import { ApiError } from '../../http/errors';
import { requireOwnProject } from '../../projects/service';
import type { SitePlatformDeps } from '../../sitePlatform/connections';
import { projectSiteOf } from '../../sitePlatform/operations/projectSite';
import { contentItemLinks } from './contentItems';
import { crawlSite } from './crawl';
import { pageListLinks } from './pageList';
import type { Note, SiteLink } from './types';

export const SITE_LINKS_MAX = 500;

export const projectIdRequired = () =>
  new ApiError(400, 'project_id_required', 'project_id is required: the website project whose links to list');

export interface SiteLinksAnswer {
  data: SiteLink[];
  total: number;
  capped: boolean;
  project: { id: string; name: string; host: string | null };
  posts: { listed: number; without_url: number };
  pages: { listed: number };
  notes: Note[];
}

/** One key per page: scheme and host lowercased, no fragment, no trailing slash but the root's. */
function urlKey(raw: string): string {
  try {
    const u = new URL(raw);
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : u.pathname;
    return `${u.protocol}//${u.host}${path}${u.search}`;
  } catch {
    return raw;
  }
}

const POST_PATH = /^\/(blog|posts?|articles?|news|insights|case-studies)\/[^/]+/i;
const lastSegment = (path: string) => path.split('/').filter(Boolean).pop() ?? null;

/**
 * The links of a project's site (doc1 "Site link"): the account's published items linked to the project
 * (`content_item`), then the site's pages — the platform's page list for a platform-hosted project with a site
 * (`page_list`), else a bounded crawl of the project's host (`crawl`). One record per URL, in that order of precedence;
 * `limit` cuts the list and `capped` says so. What could not be read is in `notes`.
 */
export async function siteLinks(
  deps: SitePlatformDeps,
  accountId: string,
  projectId: string | undefined,
  limit: number,
): Promise<SiteLinksAnswer> {
  if (!projectId) throw projectIdRequired();
  const project = await requireOwnProject(deps.db, accountId, projectId);
  const items = await contentItemLinks(deps.db, accountId, project);
  const notes = [...items.notes];
  const links: SiteLink[] = [...items.links];

  let crawl = project.kind === 'service_hosted';
  if (project.kind === 'platform_hosted') {
    const site = await projectSiteOf(deps, accountId, project.id);
    if (!site) {
      notes.push({
        code: 'no_site',
        message: 'the project names no site platform site (not connected or not bound); its host is crawled instead',
      });
      crawl = true;
    } else {
      const pages = await pageListLinks(deps, accountId, project.id, site);
      notes.push(...pages.notes);
      links.push(...pages.links);
      crawl = pages.empty;
      if (pages.empty)
        notes.push({ code: 'page_list_empty', message: `no page of site ${site.siteId} could be listed; its host is crawled instead` });
    }
  }
  if (crawl) {
    if (!project.host) {
      notes.push({ code: 'no_host', message: 'the project has no host, so its site cannot be crawled' });
    } else {
      const result = await crawlSite(deps.config, project.host, limit + 1);
      notes.push(...result.notes);
      for (const page of result.pages) {
        const path = new URL(page.url).pathname;
        links.push({
          id: page.url,
          title: page.title,
          url: page.url,
          type: POST_PATH.test(path) ? 'post' : 'page',
          published_at: null,
          slug: lastSegment(path),
          source: 'crawl',
        });
      }
    }
  }

  const seen = new Set<string>();
  const unique = links.filter((l) => {
    const key = urlKey(l.url);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const data = unique.slice(0, limit);
  return {
    data,
    total: unique.length,
    capped: unique.length > limit,
    project: { id: project.id, name: project.name, host: project.host },
    posts: { listed: data.filter((l) => l.type === 'post').length, without_url: items.withoutUrl },
    pages: { listed: data.filter((l) => l.type === 'page').length },
    notes,
  };
}
