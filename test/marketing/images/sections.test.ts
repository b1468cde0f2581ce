import assert from 'node:assert/strict';
import { bodySections, normalizedHeading, wordCount } from '../../../src/marketing/images/sections';

const brief = (html: string) => bodySections(html).map(({ index, heading, has_image }) => ({ index, heading, has_image }));

describe('body sections (bodySections)', () => {
  it('lists every H2 in document order with its 0-based index, nested ones included, other heading levels ignored', () => {
    const html = '<h1>Title</h1><h2>First</h2><p>a</p><div><section><h2>Nested  <em>one</em></h2></section></div><h3>Sub</h3><h2>Last</h2>';
    assert.deepEqual(brief(html), [
      { index: 0, heading: 'First', has_image: false },
      { index: 1, heading: 'Nested one', has_image: false },
      { index: 2, heading: 'Last', has_image: false },
    ]);
  });

  it('has_image: an <img> or <picture> anywhere before the next H2 counts, also deep inside other elements', () => {
    const html = '<h2>A</h2><div><p>x <img src="a.png"></p></div><h2>B</h2><p>y</p><h2>C</h2><picture><source srcset="c.webp"></picture>';
    assert.deepEqual(
      brief(html).map((s) => s.has_image),
      [true, false, true],
    );
  });

  it('has_image: an <svg> counts only inside a <figure>', () => {
    const html = '<h2>A</h2><figure><svg viewBox="0 0 1 1"></svg></figure><h2>B</h2><p><svg></svg> icon</p>';
    assert.deepEqual(
      brief(html).map((s) => s.has_image),
      [true, false],
    );
  });

  it('an image above the first H2 belongs to no section, and an image past the last H2 belongs to the last', () => {
    const html = '<img src="top.png"><h2>A</h2><p>text</p><h2>B</h2><p>more</p><img src="end.png">';
    assert.deepEqual(
      brief(html).map((s) => s.has_image),
      [false, true],
    );
  });

  it('section text is the visible text up to the next H2, words kept apart across blocks, scripts left out', () => {
    const [a, b] = bodySections(
      '<h2>A</h2><p>One two.</p><p>Three</p><script>var x = 1;</script><ul><li>four</li><li>five</li></ul><h2>B</h2>',
    );
    assert.equal(a.text, 'One two. Three four five');
    assert.equal(b.text, '');
  });

  it('offsets point at the H2 as written in the source (<h2 … </h2>), so placement can splice the body', () => {
    const html = '<p>Intro é 😀</p>\n<h2 class="x">Heading &amp; more</h2><p>text</p>';
    const [s] = bodySections(html);
    assert.equal(html.slice(s.headingStart, s.headingEnd), '<h2 class="x">Heading &amp; more</h2>');
    assert.equal(s.heading, 'Heading & more');
  });

  it('an empty or missing body has no sections', () => {
    assert.deepEqual(bodySections(''), []);
    assert.deepEqual(bodySections('<p>No headings at all.</p>'), []);
  });

  it('normalized headings ignore case, spacing and Unicode forms; words count runs of letters and digits', () => {
    assert.equal(normalizedHeading('  Roof\u00a0 REPAIRS '), 'roof repairs');
    assert.equal(wordCount("It's 2026 — roof-repair costs rose 5%."), 6);
  });
});
