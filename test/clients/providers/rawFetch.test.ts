import assert from 'node:assert/strict';
import { fetchTextDocument } from '../../../src/clients/providers/rawFetch';
import { startPageServer, type PageServer } from '../../../src/sandbox/pages';
import { assertProviderError, providerFailure } from './providerErrors';

describe('text document fetch (sitemaps and raw HTML, loopback)', () => {
  let pages: PageServer;
  const options = { accept: 'application/xml', timeoutMs: 1000, maxBytes: 64 * 1024, allowPrivateHosts: true };
  before(async () => {
    pages = await startPageServer();
  });
  after(() => pages.stop());

  it('answers the body unchanged with its media type, after following redirects', async () => {
    pages.setPage('/sitemap.xml', { text: '<urlset><url><loc>x</loc></url></urlset>', contentType: 'application/xml; charset=utf-8' });
    pages.setPage('/old-sitemap.xml', { redirectTo: '/sitemap.xml', status: 301 });
    const doc = await fetchTextDocument(pages.url('/old-sitemap.xml'), options);
    assert.equal(doc.finalUrl, pages.url('/sitemap.xml'));
    assert.equal(doc.contentType, 'application/xml');
    assert.equal(doc.body, '<urlset><url><loc>x</loc></url></urlset>');
  });

  it('refuses what is not text or XML, bodies over the cap, and non-2xx answers with coded errors', async () => {
    pages.setPage('/logo.png', { text: 'PNG', contentType: 'image/png' });
    assertProviderError(await providerFailure(fetchTextDocument(pages.url('/logo.png'), options)), 'page_not_html', false);
    pages.setPage('/huge.xml', { bytes: 200 * 1024 });
    assertProviderError(await providerFailure(fetchTextDocument(pages.url('/huge.xml'), options)), 'page_too_large', false);
    assertProviderError(await providerFailure(fetchTextDocument(pages.url('/missing.xml'), options)), 'page_status', false);
  });

  it('a loopback host is refused unless private hosts are allowed, and nothing is requested', async () => {
    pages.setPage('/private.xml', { text: '<urlset/>', contentType: 'text/xml' });
    const refused = await providerFailure(fetchTextDocument(pages.url('/private.xml'), { ...options, allowPrivateHosts: false }));
    assertProviderError(refused, 'page_blocked_host', false);
    const port = new URL(pages.origin).port;
    const byName = await providerFailure(
      fetchTextDocument(`http://localhost:${port}/private.xml`, { ...options, allowPrivateHosts: false }),
    );
    assertProviderError(byName, 'page_blocked_host', false);
    assert.equal(pages.hits('/private.xml'), 0);
  });
});
