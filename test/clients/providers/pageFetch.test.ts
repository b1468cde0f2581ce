import assert from 'node:assert/strict';
import { fetchReadablePage, type PageFetchOptions } from '../../../src/clients/providers/pageFetch';
import { articleHtml, startPageServer, type PageServer } from '../../../src/sandbox/pages';
import { assertProviderError, CLOSED_PORT_URL, providerFailure } from './providerErrors';

describe('page fetch (loopback pages)', () => {
  let pages: PageServer;
  const allowed: PageFetchOptions = { timeoutMs: 1000, maxBytes: 1024 * 1024, allowPrivateHosts: true };
  const fetchPage = (path: string, options: Partial<PageFetchOptions> = {}) =>
    fetchReadablePage(pages.url(path), { ...allowed, ...options });
  before(async () => {
    pages = await startPageServer();
  });
  after(() => pages.stop());

  it('reads an HTML page into its title and readable text', async () => {
    pages.setPage('/article', { html: articleHtml({ title: 'Heat pumps: what the numbers say', topic: 'Heat pumps' }) });
    const page = await fetchPage('/article');
    assert.equal(page.url, pages.url('/article'));
    assert.equal(page.finalUrl, pages.url('/article'));
    assert.equal(page.status, 200);
    assert.equal(page.contentType, 'text/html');
    assert.equal(page.title, 'Heat pumps: what the numbers say');
    assert.match(page.text, /heat pumps adoption grew by \d+%/);
    assert.equal(page.characters, page.text.length);
    assert.ok(!page.text.includes('tracking-script-text') && !page.text.includes('Contact us'), 'no script, no navigation');
  });

  it('plain text pages are read as they are, without a title', async () => {
    pages.setPage('/notes.txt', { text: 'Line one: 12% of homes.\r\nLine two.\r\n' });
    const page = await fetchPage('/notes.txt');
    assert.equal(page.contentType, 'text/plain');
    assert.equal(page.title, null);
    assert.equal(page.text, 'Line one: 12% of homes.\nLine two.');
  });

  it('a page without a Content-Type that starts like HTML is read as HTML', async () => {
    pages.setPage('/untyped', {
      html: '<!doctype html><html><head><title>Untyped</title></head><body><p>Heat pumps save 30% on bills.</p></body></html>',
      contentType: '',
    });
    const page = await fetchPage('/untyped');
    assert.equal(page.contentType, 'text/html');
    assert.equal(page.text, 'Heat pumps save 30% on bills.');
  });

  it('a gzip-compressed page is decompressed', async () => {
    pages.setPage('/gzipped', { html: articleHtml({ title: 'Solar', topic: 'Solar panels' }), gzip: true });
    assert.match((await fetchPage('/gzipped')).text, /solar panels adoption grew/);
  });

  describe('timeouts', () => {
    it('a page whose headers come later than the timeout is page_timeout (retryable)', async () => {
      pages.setPage('/slow-headers', { html: '<p>late</p>', delayMs: 2000 });
      const started = Date.now();
      const err = await providerFailure(fetchPage('/slow-headers', { timeoutMs: 200 }));
      assertProviderError(err, 'page_timeout', true);
      assert.ok(Date.now() - started < 1500, 'gave up at the timeout');
    });

    it('the whole body must arrive within the timeout, not only the headers', async () => {
      pages.setPage('/slow-body', { html: '<p>late body</p>', bodyDelayMs: 2000 });
      assertProviderError(await providerFailure(fetchPage('/slow-body', { timeoutMs: 300 })), 'page_timeout', true);
    });

    it('redirect hops share one deadline', async () => {
      pages.setPage('/hop-slow-1', { redirectTo: '/hop-slow-2', delayMs: 150 });
      pages.setPage('/hop-slow-2', { redirectTo: '/hop-slow-3', delayMs: 150 });
      pages.setPage('/hop-slow-3', { html: '<p>end</p>', delayMs: 150 });
      assertProviderError(await providerFailure(fetchPage('/hop-slow-1', { timeoutMs: 350 })), 'page_timeout', true);
    });
  });

  describe('redirects', () => {
    const chain = (name: string, hops: number) => {
      for (let i = 0; i < hops; i += 1) pages.setPage(`/${name}-${i}`, { redirectTo: `/${name}-${i + 1}`, status: i % 2 ? 301 : 302 });
      pages.setPage(`/${name}-${hops}`, { html: `<p>Arrived after ${hops} redirects.</p>` });
    };

    it('follows up to 5 redirects and reports the final URL', async () => {
      chain('five', 5);
      const page = await fetchPage('/five-0');
      assert.equal(page.finalUrl, pages.url('/five-5'));
      assert.equal(page.url, pages.url('/five-0'));
      assert.equal(page.text, 'Arrived after 5 redirects.');
    });

    it('a sixth redirect is page_too_many_redirects (and maxRedirects lowers the limit)', async () => {
      chain('six', 6);
      assertProviderError(await providerFailure(fetchPage('/six-0')), 'page_too_many_redirects', false);
      assert.equal(pages.hits('/six-6'), 0);
      chain('one', 1);
      assertProviderError(await providerFailure(fetchPage('/one-0', { maxRedirects: 0 })), 'page_too_many_redirects', false);
    });

    it('a redirect to a non-http(s) URL is page_bad_url', async () => {
      pages.setPage('/to-file', { redirectTo: 'file:///etc/passwd' });
      assertProviderError(await providerFailure(fetchPage('/to-file')), 'page_bad_url', false);
    });
  });

  describe('size limit', () => {
    it('a declared Content-Length over maxBytes is page_too_large', async () => {
      pages.setPage('/declared-big', { html: `<p>${'x'.repeat(50_000)}</p>` });
      assertProviderError(await providerFailure(fetchPage('/declared-big', { maxBytes: 10_000 })), 'page_too_large', false);
    });

    it('a streamed body is cut off once it passes maxBytes', async () => {
      pages.setPage('/streamed-big', { bytes: 5 * 1024 * 1024 });
      assertProviderError(await providerFailure(fetchPage('/streamed-big', { maxBytes: 64 * 1024 })), 'page_too_large', false);
      pages.setPage('/streamed-small', { bytes: 32 * 1024 });
      assert.ok((await fetchPage('/streamed-small', { maxBytes: 64 * 1024 })).characters > 20_000);
    });

    it('the limit counts decompressed bytes (a small gzip body that expands is too large)', async () => {
      pages.setPage('/gzip-bomb', { html: `<p>${'a'.repeat(2 * 1024 * 1024)}</p>`, gzip: true });
      assertProviderError(await providerFailure(fetchPage('/gzip-bomb', { maxBytes: 100_000 })), 'page_too_large', false);
    });
  });

  it('non-HTML content is page_not_html: PDF, images, JSON', async () => {
    for (const contentType of ['application/pdf', 'image/png', 'application/json']) {
      pages.setPage('/not-html', { html: '%PDF-1.7', contentType });
      const err = await providerFailure(fetchPage('/not-html'));
      assertProviderError(err, 'page_not_html', false);
    }
  });

  it('application/xhtml+xml is read like HTML', async () => {
    pages.setPage('/xhtml', {
      html: '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><p>XHTML text with 5 facts.</p></body></html>',
      contentType: 'application/xhtml+xml',
    });
    assert.equal((await fetchPage('/xhtml')).text, 'XHTML text with 5 facts.');
  });

  it('non-2xx is page_status with the upstream status; retryable for 5xx and 429 only', async () => {
    for (const [status, retryable] of [
      [404, false],
      [410, false],
      [429, true],
      [500, true],
      [503, true],
    ] as const) {
      pages.setPage('/status', { html: '<p>error page</p>', status });
      assertProviderError(await providerFailure(fetchPage('/status')), 'page_status', retryable, status);
    }
  });

  describe('private addresses', () => {
    const blocked: PageFetchOptions = { ...allowed, allowPrivateHosts: false };

    it('a loopback IP is page_blocked_host unless private hosts are allowed, and nothing is requested', async () => {
      pages.setPage('/private', { html: '<p>internal</p>' });
      const err = await providerFailure(fetchReadablePage(pages.url('/private'), blocked));
      assertProviderError(err, 'page_blocked_host', false);
      assert.equal(pages.hits('/private'), 0);
      assert.equal((await fetchReadablePage(pages.url('/private'), allowed)).text, 'internal');
    });

    it('host names are checked on the addresses they resolve to (localhost)', async () => {
      const port = new URL(pages.origin).port;
      pages.setPage('/by-name', { html: '<p>internal</p>' });
      assertProviderError(
        await providerFailure(fetchReadablePage(`http://localhost:${port}/by-name`, blocked)),
        'page_blocked_host',
        false,
      );
      assert.equal(pages.hits('/by-name'), 0);
    });

    it('IPv6 loopback, v4-mapped loopback and the metadata address are refused', async () => {
      for (const url of [
        'http://[::1]/',
        'http://[::ffff:127.0.0.1]/',
        'http://169.254.169.254/latest/meta-data/',
        'http://0.0.0.0/',
        'http://10.1.2.3/',
      ]) {
        assertProviderError(await providerFailure(fetchReadablePage(url, blocked)), 'page_blocked_host', false);
      }
    });
  });

  it('only absolute http(s) URLs without credentials are fetched (page_bad_url)', async () => {
    for (const url of ['not a url', '/relative', 'ftp://example.com/file', 'javascript:alert(1)', 'http://user:secret@example.com/']) {
      const err = await providerFailure(fetchReadablePage(url, allowed));
      assertProviderError(err, 'page_bad_url', false);
      assert.ok(!err.message.includes('secret'));
    }
  });

  it('a refused connection is page_failed (retryable)', async () => {
    assertProviderError(await providerFailure(fetchReadablePage(CLOSED_PORT_URL, allowed)), 'page_failed', true);
  });

  describe('charset', () => {
    const latin1Html =
      '<html><head><title>Caf\u00e9</title></head><body><p>Caf\u00e9 owners paid \u00a3200 in 2024, d\u00e9j\u00e0 vu.</p></body></html>';

    it('the Content-Type charset decodes the body', async () => {
      pages.setPage('/latin1-header', { html: latin1Html, contentType: 'text/html; charset=ISO-8859-1' });
      assert.equal((await fetchPage('/latin1-header')).text, 'Caf\u00e9 owners paid \u00a3200 in 2024, d\u00e9j\u00e0 vu.');
    });

    it('without a header charset, <meta charset> decides', async () => {
      pages.setPage('/latin1-meta', {
        html: latin1Html.replace('<head>', '<head><meta charset="windows-1252">'),
        contentType: 'text/html',
      });
      assert.equal((await fetchPage('/latin1-meta')).text, 'Caf\u00e9 owners paid \u00a3200 in 2024, d\u00e9j\u00e0 vu.');
      pages.setPage('/latin1-http-equiv', {
        html: latin1Html.replace('<head>', '<head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">'),
        contentType: 'text/html',
      });
      assert.match((await fetchPage('/latin1-http-equiv')).text, /^Caf\u00e9 owners/);
    });

    it('UTF-8 is the default', async () => {
      pages.setPage('/utf8', { html: '<p>Na\u00efve \u201cquotes\u201d \u2014 \u20ac5 and \u65e5\u672c.</p>', contentType: 'text/html' });
      assert.equal((await fetchPage('/utf8')).text, 'Na\u00efve \u201cquotes\u201d \u2014 \u20ac5 and \u65e5\u672c.');
    });
  });

  it('a cancelled fetch rethrows the abort reason', async () => {
    pages.setPage('/cancelled', { html: '<p>late</p>', delayMs: 2000 });
    const controller = new AbortController();
    const reason = new Error('activity cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(fetchPage('/cancelled', { signal: controller.signal }), (err) => err === reason);
  });
});
