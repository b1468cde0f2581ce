import assert from 'node:assert/strict';
import { imageFigure, placeUnderHeading, slotPlaced, type Placement } from '../../../src/marketing/images/placement';

const image = (over: Partial<Placement> = {}): Placement => ({
  slot: 'section:1',
  heading: 'Costs',
  headingIndex: 1,
  url: 'https://cdn.example.test/a.png',
  alt: 'A roofer at work',
  width: 1536,
  height: 1024,
  ...over,
});

const placed = (result: ReturnType<typeof placeUnderHeading>) => {
  assert.ok(result.ok, `placement refused: ${JSON.stringify(result)}`);
  return result.html;
};

describe('placement under a heading (placeUnderHeading)', () => {
  it('inserts the figure right after the </h2> and leaves every other character of the body as it was', () => {
    const before = '<p>Intro&nbsp;é 😀</p>\n<h2>Tools</h2>\n<p>x</p>\n<H2 id="c">Costs</H2><!-- keep -->\n<p>Odd <b>markup<p>kept</p>';
    const html = placed(placeUnderHeading(before, image()));
    const at = before.indexOf('</H2>') + '</H2>'.length;
    assert.equal(html, before.slice(0, at) + imageFigure(image()) + before.slice(at));
  });

  it('the figure carries the slot, src, alt, width, height, lazy loading and async decoding', () => {
    assert.equal(
      imageFigure(image()),
      '<figure class="content-image" data-content-image="section:1"><img src="https://cdn.example.test/a.png" alt="A roofer at work" width="1536" height="1024" loading="lazy" decoding="async"></figure>',
    );
  });

  it('attributes are escaped: quotes, ampersands and angle brackets in the url or alt cannot break out', () => {
    const html = placed(
      placeUnderHeading('<h2>A</h2><h2>Costs</h2>', image({ url: 'https://x.test/a.png?a=1&b="2"', alt: 'Say "hi" <b>&</b>' })),
    );
    assert.match(html, /src="https:\/\/x\.test\/a\.png\?a=1&amp;b=&quot;2&quot;"/);
    assert.match(html, /alt="Say &quot;hi&quot; &lt;b&gt;&amp;&lt;\/b&gt;"/);
  });

  it('finds the heading by text when an editor moved it: the same-text H2 nearest the planned index', () => {
    const body = '<h2>New first</h2><h2>Intro</h2><h2>Costs</h2><p>a</p><h2>Other</h2><h2>Other 2</h2><h2>Other 3</h2><h2>Costs</h2>';
    const html = placed(placeUnderHeading(body, image({ headingIndex: 1 })));
    assert.ok(
      html.startsWith('<h2>New first</h2><h2>Intro</h2><h2>Costs</h2><figure'),
      'the Costs at index 2 is nearer to 1 than the one at 6',
    );
  });

  it('prefers the H2 at the planned index when its text matches, though an earlier one has the same text', () => {
    const body = '<h2>Costs</h2><p>a</p><h2>Costs</h2><p>b</p>';
    const html = placed(placeUnderHeading(body, image({ headingIndex: 1 })));
    assert.equal(html, `<h2>Costs</h2><p>a</p><h2>Costs</h2>${imageFigure(image({ headingIndex: 1 }))}<p>b</p>`);
  });

  it('matches heading text ignoring case and spacing', () => {
    assert.ok(placeUnderHeading('<h2>x</h2><h2>  COSTS\n</h2>', image()).ok);
  });

  it('heading_gone when no H2 has the planned text any more', () => {
    assert.deepEqual(placeUnderHeading('<h2>Tools</h2><h2>Prices</h2>', image()), { ok: false, reason: 'heading_gone' });
    assert.deepEqual(placeUnderHeading('', image()), { ok: false, reason: 'heading_gone' });
  });

  it('image_present when the section got an image meanwhile (an editor added one, or an earlier attempt placed this slot)', () => {
    assert.deepEqual(placeUnderHeading('<h2>A</h2><h2>Costs</h2><p>x</p><p><img src="mine.png"></p>', image()), {
      ok: false,
      reason: 'image_present',
    });
    const once = placed(placeUnderHeading('<h2>A</h2><h2>Costs</h2><p>x</p>', image()));
    assert.deepEqual(placeUnderHeading(once, image()), { ok: false, reason: 'image_present' });
    assert.ok(slotPlaced(once, 'section:1'));
    assert.ok(!slotPlaced(once, 'section:2'));
  });

  it('existing images elsewhere are kept: placing under one heading leaves the other sections alone', () => {
    const body = '<h2>A</h2><img src="keep.png"><h2>Costs</h2><p>x</p>';
    const html = placed(placeUnderHeading(body, image()));
    assert.ok(html.includes('<img src="keep.png">'));
    assert.equal(html.match(/<img/g)?.length, 2);
  });
});
