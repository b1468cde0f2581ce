import assert from 'node:assert/strict';
import { readableText } from '../../../src/clients/providers/readableText';

const URL_OF_PAGE = 'https://example.org/guide';

const page = `<!doctype html>
<html><head><title>Heat pump guide</title>
<style>.hero { color: red } /* style-text */</style>
<script>window.trackingSecret = 'script-text';</script></head>
<body>
<nav><a href="/">Home</a> <a href="/shop">Shop menu link</a></nav>
<article>
  <h1>Heat pump guide</h1>
  <p>A heat pump moves heat instead of making it, which is why it uses far less electricity than resistive heating in most homes.</p>
  <h2>What it costs</h2>
  <p>The average installation costs $12,000 in 2024,
     and grants cover up to 40% of it for households that qualify under the national programme.</p>
  <ul><li>Air-source units are the most common.</li><li>Ground-source units cost more to install.</li></ul>
  <p>Noise levels sit around 40 dB<br>at one metre, similar to a fridge in a quiet kitchen at night time.</p>
  <script>document.write('inline-script-text')</script>
</article>
<footer>Footer: copyright and legal links</footer>
</body></html>`;

describe('readable text of HTML pages', () => {
  it('keeps block structure: paragraphs, headings and list items separated by blank lines', () => {
    const { text } = readableText(page, URL_OF_PAGE);
    const paragraphs = text.split('\n\n');
    assert.ok(paragraphs.includes('What it costs'), text);
    assert.ok(
      paragraphs.includes(
        'The average installation costs $12,000 in 2024, and grants cover up to 40% of it for households that qualify under the national programme.',
      ),
      text,
    );
    assert.ok(paragraphs.includes('Air-source units are the most common.'), text);
    assert.ok(paragraphs.includes('Ground-source units cost more to install.'), text);
    assert.ok(!text.includes('electricity than resistive heating in most homes.What it costs'), 'paragraphs are not glued together');
  });

  it('a <br> stays a line break inside its paragraph', () => {
    const { text } = readableText(page, URL_OF_PAGE);
    assert.ok(text.includes('Noise levels sit around 40 dB\nat one metre'), text);
  });

  it('drops navigation, scripts and styles', () => {
    const { text } = readableText(page, URL_OF_PAGE);
    for (const noise of ['Shop menu link', 'script-text', 'inline-script-text', 'style-text', 'trackingSecret']) {
      assert.ok(!text.includes(noise), `${noise} leaked into: ${text}`);
    }
  });

  it('the title comes from the page', () => {
    assert.equal(readableText(page, URL_OF_PAGE).title, 'Heat pump guide');
    assert.equal(readableText('<p>No title here, 12 facts.</p>', URL_OF_PAGE).title, null);
  });

  it('falls back to the body text when Readability finds no article', () => {
    // Readability removes <aside> elements outright, so a page made only of one has no article.
    const html =
      '<html><head><title>Sidebar page</title><script>var x = "script-text";</script></head><body><nav>Menu</nav><aside><p>Heat pumps need a 3 kW supply.</p><p>Second fact: 25% savings.</p></aside></body></html>';
    const { title, text } = readableText(html, URL_OF_PAGE);
    assert.equal(text, 'Heat pumps need a 3 kW supply.\n\nSecond fact: 25% savings.');
    assert.equal(title, 'Sidebar page');
  });

  it('a fragment or an empty document reads without failing', () => {
    assert.equal(readableText('Just text with 42 facts.', URL_OF_PAGE).text, 'Just text with 42 facts.');
    assert.deepEqual(readableText('', URL_OF_PAGE), { title: null, text: '' });
  });

  it('non-breaking spaces and whitespace runs become single spaces', () => {
    const { text } = readableText('<html><body><p>Costs&nbsp;fell \t by\n\n 20%  in   2023.</p></body></html>', URL_OF_PAGE);
    assert.equal(text, 'Costs fell by 20% in 2023.');
  });
});
