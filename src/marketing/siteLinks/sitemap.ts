import { DOMParser, parseHTML } from 'linkedom';

/** The sitemap protocol's own cap per file; more entries than this are ignored. */
const MAX_ENTRIES = 50_000;

export type SitemapDoc = { kind: 'urlset'; urls: string[] } | { kind: 'index'; sitemaps: string[] } | { kind: 'invalid' };

/** A sitemap (sitemaps.org 0.9): the `<loc>` of each `<url>` of a urlset, or of each `<sitemap>` of a sitemap index. */
export function parseSitemap(xml: string): SitemapDoc {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  const kind = root?.localName;
  if (kind !== 'urlset' && kind !== 'sitemapindex') return { kind: 'invalid' };
  const entry = kind === 'urlset' ? 'url' : 'sitemap';
  const locs: string[] = [];
  for (const el of [...root.getElementsByTagName('loc')].slice(0, MAX_ENTRIES)) {
    const text = el.textContent?.trim();
    if (text && el.parentElement?.localName === entry) locs.push(text);
  }
  return kind === 'urlset' ? { kind: 'urlset', urls: locs } : { kind: 'index', sitemaps: locs };
}

interface HtmlElement {
  getAttribute(name: string): string | null;
  textContent: string | null;
}
interface HtmlDocument {
  title: string;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): Iterable<HtmlElement>;
}

export interface PageLinks {
  title: string | null;
  links: Array<{ url: string; text: string | null }>;
}

/** The page's <title> and its `<a href>` targets, resolved against the page URL (http and https only, fragments dropped). */
export function linksOfHtml(html: string, pageUrl: string): PageLinks {
  const { document } = parseHTML(html) as unknown as { document: HtmlDocument };
  const base = document.querySelector('base[href]')?.getAttribute('href');
  const resolveFrom = base ? (safeUrl(base, pageUrl)?.href ?? pageUrl) : pageUrl;
  const links: PageLinks['links'] = [];
  for (const a of document.querySelectorAll('a[href]')) {
    const url = safeUrl(a.getAttribute('href') ?? '', resolveFrom);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) continue;
    url.hash = '';
    const text = (a.textContent ?? '').replace(/\s+/g, ' ').trim();
    links.push({ url: url.href, text: text || null });
  }
  const title = (document.title ?? '').replace(/\s+/g, ' ').trim();
  return { title: title || null, links };
}

function safeUrl(raw: string, base: string): URL | null {
  try {
    return new URL(raw.trim(), base);
  } catch {
    return null;
  }
}
