import assert from 'node:assert/strict';
import { readableText } from '../../../src/clients/providers/readableText';
import { articleHtml, startPageServer, type PageServer } from '../../../src/sandbox/pages';

describe('page server (web pages on loopback)', () => {
  let pages: PageServer;
  before(async () => {
    pages = await startPageServer();
  });
  after(() => pages.stop());

  it('serves a set page as HTML at its URL and counts hits per path', async () => {
    pages.setPage('/hello', { html: '<p>Hello</p>' });
    assert.equal(pages.url('/hello'), `${pages.origin}/hello`);
    const res = await fetch(pages.url('/hello?x=1'));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await res.text(), '<p>Hello</p>');
    assert.equal(pages.hits('/hello'), 1);
  });

  it('an unknown path is a 404 page', async () => {
    const res = await fetch(pages.url('/nowhere'));
    assert.equal(res.status, 404);
    await res.text();
  });

  it('status, content type and text pages are served as set', async () => {
    pages.setPage('/gone', { html: '<p>gone</p>', status: 410 });
    assert.equal((await fetch(pages.url('/gone'))).status, 410);
    pages.setPage('/doc.pdf', { html: '%PDF', contentType: 'application/pdf' });
    assert.equal((await fetch(pages.url('/doc.pdf'))).headers.get('content-type'), 'application/pdf');
    pages.setPage('/notes', { text: 'plain' });
    assert.equal((await fetch(pages.url('/notes'))).headers.get('content-type'), 'text/plain; charset=utf-8');
  });

  it('redirectTo answers a redirect with Location', async () => {
    pages.setPage('/old', { redirectTo: '/new' });
    const res = await fetch(pages.url('/old'), { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/new');
  });

  it('a page is sent in the charset its Content-Type names', async () => {
    pages.setPage('/latin1', { html: '<p>Caf\u00e9</p>', contentType: 'text/html; charset=iso-8859-1' });
    const bytes = Buffer.from(await (await fetch(pages.url('/latin1'))).arrayBuffer());
    assert.deepEqual([...bytes], [...Buffer.from('<p>Caf'), 0xe9, ...Buffer.from('</p>')]);
  });

  it('bytes streams a body of exactly that size without Content-Length', async () => {
    pages.setPage('/sized', { bytes: 100_000 });
    const res = await fetch(pages.url('/sized'));
    assert.equal(res.headers.get('content-length'), null);
    assert.equal((await res.arrayBuffer()).byteLength, 100_000);
  });

  it('delayMs holds the answer; stop() ends held requests at once', async () => {
    const other = await startPageServer();
    other.setPage('/slow', { html: '<p>slow</p>', delayMs: 10_000 });
    const pending = fetch(other.url('/slow'));
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    await other.stop();
    await assert.rejects(pending);
    assert.ok(Date.now() - started < 2000);
  });

  it('articleHtml makes an article of at least N characters of fact sentences about the topic, with page chrome', () => {
    const html = articleHtml({ title: 'Solar panels today', topic: 'Solar panels', characters: 61_000 });
    assert.match(html, /<nav>/);
    assert.match(html, /<script>/);
    const { title, text } = readableText(html, 'http://127.0.0.1/solar');
    assert.equal(title, 'Solar panels today');
    assert.ok(text.length > 60_000, `only ${text.length} characters`);
    assert.match(text, /solar panels adoption grew by \d+% across [\d,]+ surveyed households/);
    assert.ok(!text.includes('tracking-script-text'));
    assert.equal(articleHtml({ title: 't', topic: 'Solar panels' }), articleHtml({ title: 't', topic: 'Solar panels' }), 'deterministic');
  });
});
