import assert from 'node:assert/strict';
import { filler, findingsOf, withBody } from './fixtures';

describe('SEO check: body, headings and images', () => {
  describe('body', () => {
    it('a body without text is an error on body', () => {
      for (const body of [null, '', '<p> </p><!-- draft -->', '<img src="/a.png" alt="a">']) {
        assert.deepEqual(
          findingsOf(withBody(body), 'body_empty').map((f) => [f.level, f.field]),
          [['error', 'body']],
          String(body),
        );
      }
    });

    it('a body under 300 words is a warning; 300 is fine', () => {
      assert.equal(findingsOf(withBody(`<p>${filler(299)}</p>`), 'body_too_short').length, 1);
      assert.equal(findingsOf(withBody(`<p>${filler(300)}</p>`), 'body_too_short').length, 0);
    });

    it('script and style contents are not counted as text', () => {
      assert.equal(findingsOf(withBody(`<script>${filler(400)}</script><style>p{}</style>`), 'body_empty').length, 1);
    });
  });

  describe('heading order', () => {
    const codes = (body: string) =>
      findingsOf(withBody(body), 'heading_level_skipped').length + findingsOf(withBody(body), 'heading_order').length;

    it('an H3 before any H2 is a warning', () => {
      assert.deepEqual(
        findingsOf(withBody('<h3>Intro</h3><h2>Main</h2>'), 'heading_order').map((f) => [f.level, f.field]),
        [['warn', 'body']],
      );
    });

    it('a skipped level (H2 then H4) is a warning per skip', () => {
      assert.equal(findingsOf(withBody('<h2>A</h2><h4>B</h4><h2>C</h2><h4>D</h4>'), 'heading_level_skipped').length, 2);
    });

    it('a well-ordered outline has no heading findings, and going back up any number of levels is fine', () => {
      assert.equal(codes('<h2>A</h2><h3>B</h3><h4>C</h4><h2>D</h2><h3>E</h3>'), 0);
    });

    it('more than one H1 is a warning; one is fine', () => {
      assert.deepEqual(
        findingsOf(withBody('<h1>A</h1><h2>B</h2><h1>C</h1>'), 'multiple_h1').map((f) => [f.level, f.field]),
        [['warn', 'body']],
      );
      assert.equal(findingsOf(withBody('<h1>A</h1><h2>B</h2>'), 'multiple_h1').length, 0);
    });

    it('an empty heading is a warning', () => {
      assert.equal(findingsOf(withBody('<h2>A</h2><h2> <br> </h2>'), 'heading_empty').length, 1);
    });
  });

  describe('images', () => {
    it('each body image without alt text (absent or blank) is a warning on body', () => {
      const found = findingsOf(
        withBody('<img src="/a.png"><img src="/b.png" alt=""><img src="/c.png" alt="  "><img src="/d.png" alt="A chart">'),
        'image_alt_missing',
      );
      assert.deepEqual(
        found.map((f) => [f.level, f.field]),
        [
          ['warn', 'body'],
          ['warn', 'body'],
          ['warn', 'body'],
        ],
      );
      assert.match(found[0].message, /\/a\.png/);
    });

    it('a featured image without alt text is a warning on featured_image_alt', () => {
      assert.deepEqual(
        findingsOf(withBody('<p>x</p>', { featured_image_alt: null }), 'featured_image_alt_missing').map((f) => [f.level, f.field]),
        [['warn', 'featured_image_alt']],
      );
    });

    it('no featured image at all is a warning on featured_image_url, and its alt is then not asked for', () => {
      const item = withBody('<p>x</p>', { featured_image_url: null, featured_image_alt: null });
      assert.deepEqual(
        findingsOf(item, 'featured_image_missing').map((f) => [f.level, f.field]),
        [['warn', 'featured_image_url']],
      );
      assert.equal(findingsOf(item, 'featured_image_alt_missing').length, 0);
    });
  });
});
