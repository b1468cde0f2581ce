import type { Config } from '../../config';
import { ProviderError } from '../../clients/providers/errors';
import { fetchTextDocument } from '../../clients/providers/rawFetch';
import { linksOfHtml, parseSitemap } from './sitemap';
import type { Note } from './types';

/** Documents read per crawl at most (sitemap, child sitemaps, home page). */
export const CRAWL_MAX_FETCHES = 25;
/** Per-document timeout ceiling (FETCH_TIMEOUT_MS when lower), and the whole crawl's deadline. */
const FETCH_TIMEOUT_CAP_MS = 5_000;
const CRAWL_DEADLINE_MS = 20_000;
/** Largest document read (FETCH_MAX_BYTES when lower). */
const MAX_BYTES_CAP = 5 * 1024 * 1024;

const NOT_A_PAGE = /\.(pdf|jpe?g|png|gif|webp|avif|svg|ico|css|js|mjs|json|xml|txt|zip|gz|mp3|mp4|webm|mov|woff2?|ttf)$/i;

export interface CrawledPage {
  url: string;
  title: string | null;
}

export interface CrawlResult {
  pages: CrawledPage[];
  notes: Note[];
}

type CrawlConfig = Pick<Config, 'SITE_CRAWL_ORIGIN_TEMPLATE' | 'FETCH_ALLOW_PRIVATE_HOSTS' | 'FETCH_TIMEOUT_MS' | 'FETCH_MAX_BYTES'>;

export const crawlOrigin = (config: Pick<Config, 'SITE_CRAWL_ORIGIN_TEMPLATE'>, host: string) =>
  config.SITE_CRAWL_ORIGIN_TEMPLATE.replaceAll('{host}', host).replace(/\/+$/, '');

/**
 * A bounded crawl of the project's site: `/sitemap.xml` first (a urlset, or a sitemap index whose child sitemaps are read,
 * one level deep), else the home page's links. Only same-site URLs are kept (the origin's host and the hosts its
 * redirects land on). At most CRAWL_MAX_FETCHES documents, each under the page-fetch safety rules (public addresses
 * only unless FETCH_ALLOW_PRIVATE_HOSTS, redirects checked per hop, a timeout and a size cap). Stops once `wanted`
 * pages are known. What could not be read is reported in notes, never thrown.
 */
export async function crawlSite(config: CrawlConfig, host: string, wanted: number): Promise<CrawlResult> {
  const origin = crawlOrigin(config, host);
  const notes: Note[] = [];
  const sameSite = new Set<string>();
  try {
    sameSite.add(new URL(origin).host);
  } catch {
    return { pages: [], notes: [{ code: 'crawl_failed', message: `the project's host ${host} does not make a valid URL` }] };
  }
  const deadline = AbortSignal.timeout(CRAWL_DEADLINE_MS);
  let fetches = 0;
  /** `root`: the site's own entry documents (/sitemap.xml, home), whose redirect target joins the site's hosts. */
  const fetchDoc = async (url: string, accept: string, root = false) => {
    if (fetches >= CRAWL_MAX_FETCHES) throw new BudgetSpent();
    fetches += 1;
    const doc = await fetchTextDocument(url, {
      accept,
      timeoutMs: Math.min(config.FETCH_TIMEOUT_MS, FETCH_TIMEOUT_CAP_MS),
      maxBytes: Math.min(config.FETCH_MAX_BYTES, MAX_BYTES_CAP),
      allowPrivateHosts: config.FETCH_ALLOW_PRIVATE_HOSTS,
      signal: deadline,
    });
    if (root) sameSite.add(new URL(doc.finalUrl).host);
    return doc;
  };
  const pages = new Map<string, CrawledPage>();
  const keep = (url: string, title: string | null) => {
    let u: URL;
    try {
      u = new URL(url, origin);
    } catch {
      return; // a malformed <loc> is skipped, not fatal
    }
    u.hash = '';
    if (!/^https?:$/.test(u.protocol) || !sameSite.has(u.host) || NOT_A_PAGE.test(u.pathname) || pages.has(u.href)) return;
    pages.set(u.href, { url: u.href, title });
  };

  try {
    const sitemap = await readSitemap(`${origin}/sitemap.xml`, fetchDoc, notes, (u) => sameSite.has(u.host), wanted);
    for (const url of sitemap) keep(url, null);
    if (sitemap.length === 0) {
      const home = await fetchDoc(`${origin}/`, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', true);
      const { title, links } = linksOfHtml(home.body, home.finalUrl);
      keep(home.finalUrl, title);
      for (const link of links) keep(link.url, link.text);
    }
  } catch (err) {
    if (deadline.aborted)
      notes.push({ code: 'crawl_deadline', message: `the crawl of ${host} stopped at its ${CRAWL_DEADLINE_MS / 1000} s deadline` });
    else notes.push({ code: 'crawl_failed', message: `the site at ${host} could not be read: ${describe(err)}` });
  }
  return { pages: [...pages.values()], notes };
}

class BudgetSpent extends Error {}

type FetchDoc = (url: string, accept: string, root?: boolean) => ReturnType<typeof fetchTextDocument>;
const SITEMAP_ACCEPT = 'application/xml,text/xml;q=0.9,*/*;q=0.1';

/** The page URLs of the site's sitemap; [] with a note when it is missing or unreadable. A fetch failure of a child is a note. */
async function readSitemap(
  url: string,
  fetchDoc: FetchDoc,
  notes: Note[],
  onSite: (url: URL) => boolean,
  wanted: number,
): Promise<string[]> {
  let doc;
  try {
    doc = parseSitemap((await fetchDoc(url, SITEMAP_ACCEPT, true)).body);
  } catch (err) {
    if (err instanceof ProviderError && err.code === 'page_status' && err.upstreamStatus === 404) {
      notes.push({ code: 'sitemap_missing', message: 'the site has no /sitemap.xml; pages are the links of its home page' });
      return [];
    }
    if (err instanceof ProviderError && err.code === 'page_blocked_host') throw err;
    notes.push({
      code: 'sitemap_unreadable',
      message: `/sitemap.xml could not be read (${describe(err)}); pages are the links of its home page`,
    });
    return [];
  }
  if (doc.kind === 'invalid') {
    notes.push({
      code: 'sitemap_unreadable',
      message: '/sitemap.xml is not a sitemap (urlset or sitemapindex); pages are the links of its home page',
    });
    return [];
  }
  if (doc.kind === 'urlset') return doc.urls;
  const urls: string[] = [];
  for (const [i, child] of doc.sitemaps.entries()) {
    if (urls.length >= wanted) break;
    const childUrl = URL.parse(child, url);
    if (!childUrl || !onSite(childUrl)) {
      notes.push({ code: 'sitemap_unreadable', message: `child sitemap ${child.slice(0, 200)} is not on the site's host; not read` });
      continue;
    }
    try {
      const childDoc = parseSitemap((await fetchDoc(childUrl.href, SITEMAP_ACCEPT)).body);
      // One level only: an index inside an index is not followed.
      if (childDoc.kind === 'urlset') urls.push(...childDoc.urls);
      else notes.push({ code: 'sitemap_unreadable', message: `child sitemap ${child} is not a urlset` });
    } catch (err) {
      if (err instanceof BudgetSpent) {
        const left = doc.sitemaps.length - i;
        notes.push({
          code: 'crawl_budget_reached',
          message: `the crawl stopped after ${CRAWL_MAX_FETCHES} documents; ${left} child sitemaps were not read, so more pages may exist`,
        });
        break;
      }
      if (err instanceof DOMException || (err as Error)?.name === 'TimeoutError') throw err;
      notes.push({ code: 'sitemap_unreadable', message: `child sitemap ${child} could not be read (${describe(err)})` });
    }
  }
  return urls;
}

const describe = (err: unknown) => (err instanceof ProviderError ? `${err.code}: ${err.message}` : 'unexpected error');
