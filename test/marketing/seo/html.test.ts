import assert from 'node:assert/strict';
import { readBody } from '../../../src/marketing/seo/html';

describe('SEO check: reading the body HTML', () => {
  it('reads headings, paragraphs, images and links in order', () => {
    const b = readBody('<h2 class="x">One <em>two</em></h2><p>Para <a href="/a">link</a>.</p><img src="/i.png" alt="pic"><h3>Three</h3>');
    assert.deepEqual(b.headings, [
      { level: 2, text: 'One two' },
      { level: 3, text: 'Three' },
    ]);
    assert.deepEqual(b.paragraphs, ['Para link.']);
    assert.deepEqual(b.images, [{ src: '/i.png', alt: 'pic' }]);
    assert.deepEqual(b.links, [{ href: '/a', text: 'link', named: false }]);
  });

  it('copes with quoted ">" in attributes, unquoted and valueless attributes, self-closing tags and upper case', () => {
    const b = readBody('<IMG SRC=/x.png ALT="a > b" data-flag/><a title=\'x>y\' href=/go>go</A><img src="/y.png" alt>');
    assert.deepEqual(b.images, [
      { src: '/x.png', alt: 'a > b' },
      { src: '/y.png', alt: '' },
    ]);
    assert.deepEqual(
      b.links.map((l) => l.href),
      ['/go'],
    );
  });

  it('skips comments, doctype, script and style, and keeps a stray "<" as text', () => {
    const b = readBody('<!doctype html><!-- <h2>hidden</h2> --><script>if (a<b) {"<h2>"}</script><style>h2{}</style><p>1 < 2</p>');
    assert.deepEqual(b.headings, []);
    assert.equal(b.text, '1 < 2');
  });

  it('closes what editors leave open: unclosed paragraphs and headings, a paragraph cut by a heading', () => {
    const b = readBody('<p>first<p>second<h2>head</h2><p>third');
    assert.deepEqual(b.paragraphs, ['first', 'second', 'third']);
    assert.deepEqual(b.headings, [{ level: 2, text: 'head' }]);
  });

  it('decodes entities in text and attributes', () => {
    assert.equal(readBody('<p>a &amp; b &lt;c&gt; &#233; &#x1F680; &unknown;</p>').paragraphs[0], 'a & b <c> é 🚀 &unknown;');
    assert.equal(readBody('<p>x&nbsp;&nbsp;y</p>').paragraphs[0], 'x y', 'no-break spaces read as one space');
    assert.deepEqual(readBody('<img alt="Tom &amp; Jerry">').images[0].alt, 'Tom & Jerry');
  });

  it('puts one block per line in text', () => {
    assert.equal(readBody('<p>a</p><ul><li>b</li><li>c <b>d</b></li></ul>text').text, 'a\nb\nc d\ntext');
  });

  it('treats null and empty bodies as empty', () => {
    assert.deepEqual(readBody(null), { headings: [], paragraphs: [], images: [], links: [], text: '' });
  });
});
