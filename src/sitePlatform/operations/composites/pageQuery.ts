import { ApiError } from '../../../http/errors';
import type { CompositeContext } from './types';

const PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 500;

interface PlatformPage {
  id: string;
  title?: string | null;
  slug?: string | null;
  publishedPath?: string | null;
  seo?: { title?: string | null; description?: string | null } | null;
  openGraph?: { title?: string | null; description?: string | null } | null;
}

interface PageList {
  pages?: PlatformPage[];
  pagination?: { total?: number };
}

const searchable = (p: PlatformPage) =>
  [p.title, p.slug, p.publishedPath, p.seo?.title, p.seo?.description, p.openGraph?.title, p.openGraph?.description]
    .filter((v): v is string => typeof v === 'string')
    .join('\n')
    .toLowerCase();

/**
 * page_query: the platform has no page search, so the site's page list is scanned here, 100 per call, up to
 * `max_pages` pages (default 500). `capped: true` means the scan stopped before the end of the list (the page cap,
 * or the connection's rate budget ran out after the first call): an empty result then means "not in the pages
 * scanned", not "no such page". A rate limit on the first call is the caller's 429.
 */
export async function pageQuery({ client, params }: CompositeContext) {
  const needle = String(params.query).toLowerCase();
  const maxPages = (params.max_pages as number | undefined) ?? DEFAULT_MAX_PAGES;
  const matches: PlatformPage[] = [];
  let scanned = 0;
  let total: number | null = null;
  let retryAfterSeconds: number | undefined;
  while (scanned < maxPages && (total === null || scanned < total)) {
    const limit = Math.min(PAGE_SIZE, maxPages - scanned);
    let list: PageList;
    try {
      const query: Record<string, string | number> = { offset: scanned, limit };
      if (typeof params.localeId === 'string') query.localeId = params.localeId;
      list =
        (
          await client.request<PageList>({
            method: 'GET',
            base: 'v2',
            path: `/sites/${encodeURIComponent(String(params.site_id))}/pages`,
            query,
          })
        ).body ?? {};
    } catch (err) {
      if (scanned > 0 && err instanceof ApiError && err.status === 429) {
        retryAfterSeconds = err.extra.retryAfterSeconds;
        break;
      }
      throw err;
    }
    const pages = Array.isArray(list.pages) ? list.pages : [];
    total = typeof list.pagination?.total === 'number' ? list.pagination.total : scanned + pages.length;
    for (const page of pages) if (searchable(page).includes(needle)) matches.push(page);
    scanned += pages.length;
    if (pages.length < limit) break;
  }
  const capped = total === null || scanned < total;
  return {
    pages: matches,
    scanned,
    total,
    capped,
    ...(retryAfterSeconds !== undefined ? { retry_after_seconds: retryAfterSeconds } : {}),
  };
}
