import assert from 'node:assert/strict';
import { startPageServer, type PageServer } from '../../../src/sandbox/pages';
import { newAccount, type TestAccount } from '../../helpers/accounts';
import { newProjectId } from '../../helpers/projects';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { codes, getSiteLinks, insertItem } from './fixtures';

const XML = 'application/xml; charset=utf-8';
const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<url><loc>${u}</loc><lastmod>2026-11-01</lastmod></url>`)
    .join('')}</urlset>`;
const sitemapIndex = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls
    .map((u) => `<sitemap><loc>${u}</loc></sitemap>`)
    .join('')}</sitemapindex>`;

/**
 * doc1 site-links `crawl`: where no page list exists, a bounded, SSRF-safe crawl of the project's host, sitemap first.
 * The project's host is `localhost`, and SITE_CRAWL_ORIGIN_TEMPLATE points https://{host} at a loopback page server.
 */
describe('site links: crawl of a project without a page list', () => {
  let acct: TestAccount;
  const servers: PageServer[] = [];
  const apps: PrivateApp[] = [];

  /** A fresh site on loopback, an app that may (or may not) reach it, and a service-hosted project on host localhost. */
  async function site(allowPrivateHosts = true) {
    const pages = await startPageServer();
    servers.push(pages);
    const port = new URL(pages.origin).port;
    const app = await startPrivateApp([], {
      config: { SITE_CRAWL_ORIGIN_TEMPLATE: `http://{host}:${port}`, FETCH_ALLOW_PRIVATE_HOSTS: allowPrivateHosts },
    });
    apps.push(app);
    const projectId = await newProjectId(acct.accountId, { kind: 'service_hosted', host: 'localhost' });
    const at = (path: string) => `http://localhost:${port}${path}`;
    const links = (params: Record<string, string | number> = {}) =>
      getSiteLinks(app.baseUrl, acct.agentKey, { project_id: projectId, ...params });
    return { pages, projectId, at, links };
  }

  before(async () => {
    acct = await newAccount();
  });
  after(async () => {
    await Promise.all([...apps.map((a) => a.close()), ...servers.map((s) => s.stop())]);
  });

  it('reads /sitemap.xml: same-host pages only, files left out, posts by path, a content item found again listed once', async () => {
    const s = await site();
    s.pages.setPage('/sitemap.xml', {
      text: urlset([
        s.at('/'),
        s.at('/about'),
        s.at('/blog/fix-a-leak'),
        s.at('/blog/new-boiler/'),
        s.at('/brochure.pdf'),
        'https://elsewhere.test/x',
      ]),
      contentType: XML,
    });
    const itemId = await insertItem(acct.accountId, { projectId: s.projectId, slug: null, canonical_url: s.at('/blog/new-boiler') });
    const res = await s.links();
    assert.deepEqual(
      res.body.data.map((l: { url: string; source: string; type: string }) => [l.source, l.type, l.url]),
      [
        ['content_item', 'post', s.at('/blog/new-boiler')],
        ['crawl', 'page', s.at('/')],
        ['crawl', 'page', s.at('/about')],
        ['crawl', 'post', s.at('/blog/fix-a-leak')],
      ],
    );
    assert.equal(res.body.data[0].id, itemId);
    assert.deepEqual(res.body.data[3], {
      id: s.at('/blog/fix-a-leak'),
      title: null,
      url: s.at('/blog/fix-a-leak'),
      type: 'post',
      published_at: null,
      slug: 'fix-a-leak',
      source: 'crawl',
    });
    assert.deepEqual(res.body.posts, { listed: 2, without_url: 0 });
    assert.deepEqual(res.body.pages, { listed: 2 });
    assert.deepEqual(codes(res), []);
    assert.equal(s.pages.hits('/'), 0, 'the home page is not fetched when the sitemap answers');
  });

  it('follows one level of sitemap index; malformed and non-http entries are skipped; an unreadable or foreign child sitemap is a note', async () => {
    const s = await site();
    s.pages.setPage('/sitemap.xml', {
      text: sitemapIndex([s.at('/sitemap-pages.xml'), s.at('/sitemap-posts.xml'), s.at('/gone.xml'), 'https://elsewhere.test/sitemap.xml']),
      contentType: XML,
    });
    s.pages.setPage('/sitemap-pages.xml', {
      text: urlset([s.at('/'), 'http://[broken', s.at('/contact').replace('http:', 'ftp:'), s.at('/contact')]),
      contentType: XML,
    });
    s.pages.setPage('/sitemap-posts.xml', { text: urlset([s.at('/blog/one')]), contentType: XML });
    const res = await s.links();
    assert.deepEqual(
      res.body.data.map((l: { url: string }) => l.url),
      [s.at('/'), s.at('/contact'), s.at('/blog/one')],
    );
    assert.deepEqual(codes(res), ['sitemap_unreadable', 'sitemap_unreadable']);
    assert.match(res.body.notes[0].message, /gone\.xml/);
    assert.match(res.body.notes[1].message, /elsewhere\.test.*not on the site's host/);
  });

  it('without a sitemap: the home page and its same-host links, titled by their text, with a sitemap_missing note', async () => {
    const s = await site();
    s.pages.setPage('/', {
      html: `<!doctype html><html><head><title>Acme Plumbing</title></head><body>
        <a href="/services">Our  services</a> <a href="${s.at('/blog/winter-tips')}#top">Winter tips</a>
        <a href="https://elsewhere.test/">Partner</a> <a href="mailto:hi@acme.test">Mail</a> <a href="/services">Again</a>
        <a href="/logo.png">Logo</a></body></html>`,
    });
    const res = await s.links();
    assert.deepEqual(
      res.body.data.map((l: { url: string; title: string | null; type: string }) => [l.url, l.title, l.type]),
      [
        [s.at('/'), 'Acme Plumbing', 'page'],
        [s.at('/services'), 'Our services', 'page'],
        [s.at('/blog/winter-tips'), 'Winter tips', 'post'],
      ],
    );
    assert.deepEqual(codes(res), ['sitemap_missing']);
  });

  it('the crawl reads at most 25 documents (crawl_budget_reached)', async () => {
    const s = await site();
    const children = Array.from({ length: 30 }, (_, i) => `/sitemap-${i}.xml`);
    s.pages.setPage('/sitemap.xml', { text: sitemapIndex(children.map(s.at)), contentType: XML });
    children.forEach((c, i) => s.pages.setPage(c, { text: urlset([s.at(`/page-${i}`)]), contentType: XML }));
    const res = await s.links();
    assert.equal(res.body.data.length, 24, 'the index and 24 children');
    assert.equal(s.pages.hits('/sitemap-24.xml'), 0);
    assert.deepEqual(codes(res), ['crawl_budget_reached']);
  });

  it('the limit caps crawled pages too (capped)', async () => {
    const s = await site();
    s.pages.setPage('/sitemap.xml', { text: urlset(['/a', '/b', '/c', '/d', '/e'].map(s.at)), contentType: XML });
    const res = await s.links({ limit: 2 });
    assert.equal(res.body.data.length, 2);
    assert.equal(res.body.total, 5);
    assert.equal(res.body.capped, true);
  });

  it('a site that cannot be read is a note (crawl_failed), not a failed request; the content items are still listed', async () => {
    const s = await site();
    s.pages.setPage('/', { html: '<p>down</p>', status: 500 });
    await insertItem(acct.accountId, { projectId: s.projectId, canonical_url: 'https://medium.test/still-here' });
    const res = await s.links();
    assert.deepEqual(
      res.body.data.map((l: { source: string }) => l.source),
      ['content_item'],
    );
    assert.deepEqual(codes(res), ['sitemap_missing', 'crawl_failed']);
    assert.match(res.body.notes[1].message, /answered 500/);
  });

  it('SSRF: a host resolving to a private address is refused unless FETCH_ALLOW_PRIVATE_HOSTS; nothing is requested', async () => {
    const s = await site(false);
    s.pages.setPage('/sitemap.xml', { text: urlset([s.at('/secret')]), contentType: XML });
    s.pages.setPage('/', { html: '<a href="/secret">secret</a>' });
    const res = await s.links();
    assert.deepEqual(res.body.data, []);
    assert.deepEqual(codes(res), ['crawl_failed']);
    assert.match(res.body.notes[0].message, /page_blocked_host/);
    assert.equal(s.pages.hits('/sitemap.xml') + s.pages.hits('/'), 0);

    // An IP literal never resolves: it is refused before any request.
    const literal = await newProjectId(acct.accountId, { kind: 'service_hosted', host: '127.0.0.1' });
    const byIp = await getSiteLinks(apps[apps.length - 1].baseUrl, acct.agentKey, { project_id: literal });
    assert.deepEqual(codes(byIp), ['crawl_failed']);
    assert.match(byIp.body.notes[0].message, /page_blocked_host/);
    assert.equal(s.pages.hits('/sitemap.xml') + s.pages.hits('/'), 0);
  });
});
