import { ApiError } from '../../http/errors';
import type { SitePlatformDeps } from '../../sitePlatform/connections';
import { runOperation } from '../../sitePlatform/operations';
import type { ProjectSite } from '../../sitePlatform/operations/projectSite';
import { livePagesOfIndex } from '../../sitePlatform/webhooks/pageIndex';
import type { Note, SiteLink } from './types';

const PAGE_SIZE = 100;
/** Platform page-list calls per request at most (1,000 pages). */
const MAX_CALLS = 10;

interface PlatformPage {
  id?: unknown;
  title?: unknown;
  slug?: unknown;
  publishedPath?: unknown;
  collectionId?: unknown;
  draft?: unknown;
  archived?: unknown;
  isBranch?: unknown;
}

interface ListedPage {
  id: string;
  title: string | null;
  slug: string | null;
  path: string;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/**
 * `page_list` links of a platform-hosted project's site: the live page list read through the operation runner (the
 * same gates, snapshot cache and rate limits as every platform read), draft, archived, branch and CMS template pages left
 * out; when the platform cannot be read, the account's page index (kept by page webhooks and site publishes), with a note.
 * `empty` says neither source had a page, so the caller may crawl instead.
 */
export async function pageListLinks(
  deps: SitePlatformDeps,
  accountId: string,
  projectId: string,
  site: ProjectSite,
): Promise<{ links: SiteLink[]; notes: Note[]; empty: boolean }> {
  const notes: Note[] = [];
  let pages: ListedPage[];
  try {
    pages = await livePageList(deps, accountId, projectId, site.siteId, notes);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const indexed = await livePagesOfIndex(deps.db, accountId, site.siteId);
    notes.push({
      code: 'page_list_unavailable',
      message: `the site platform's page list could not be read (${err.code}: ${err.message}); pages come from the account's page index (${indexed.length} pages), which may be behind`,
    });
    pages = indexed.flatMap((p) =>
      p.publishedPath
        ? [{ id: p.pageId, title: p.title, slug: p.publishedPath.split('/').filter(Boolean).pop() ?? null, path: p.publishedPath }]
        : [],
    );
  }
  if (pages.length > 0 && !site.domain) {
    notes.push({
      code: 'site_domain_unknown',
      message: `site ${site.siteId} has no custom domain or platform subdomain on record; its pages have no URL`,
    });
    return { links: [], notes, empty: false };
  }
  const links = pages.map((p): SiteLink => ({
    id: p.id,
    title: p.title,
    url: `https://${site.domain}${p.path.startsWith('/') ? p.path : `/${p.path}`}`,
    type: 'page',
    published_at: null,
    slug: p.slug,
    source: 'page_list',
  }));
  return { links, notes, empty: pages.length === 0 };
}

async function livePageList(
  deps: SitePlatformDeps,
  accountId: string,
  projectId: string,
  siteId: string,
  notes: Note[],
): Promise<ListedPage[]> {
  const pages: ListedPage[] = [];
  for (let call = 0; ; call += 1) {
    if (call === MAX_CALLS) {
      notes.push({ code: 'page_list_truncated', message: `only the first ${MAX_CALLS * PAGE_SIZE} pages of the site were read` });
      break;
    }
    const { result } = await runOperation(deps, {
      accountId,
      projectId,
      method: 'GET',
      action: 'page_list',
      params: { site_id: siteId, offset: call * PAGE_SIZE, limit: PAGE_SIZE },
      // Reads are never audited, so no actor is looked up.
      actor: async () => 'system',
    });
    const body = (result ?? {}) as { pages?: PlatformPage[]; pagination?: { total?: number } };
    const batch = Array.isArray(body.pages) ? body.pages : [];
    for (const p of batch) {
      const id = text(p.id);
      const path = text(p.publishedPath);
      if (!id || !path || p.draft === true || p.archived === true || p.isBranch === true || text(p.collectionId)) continue;
      pages.push({ id, title: text(p.title), slug: text(p.slug), path });
    }
    const total = body.pagination?.total;
    if (batch.length < PAGE_SIZE || (typeof total === 'number' && (call + 1) * PAGE_SIZE >= total)) break;
  }
  return pages;
}
