import assert from 'node:assert/strict';
import { planHtml, renderTracked } from '../../../src/email/tracking/html';

const track = (html: string, skip: (url: string) => boolean = () => false) => {
  const plan = planHtml(html, { links: true, skip });
  return { plan, out: renderTracked(html, plan, 'https://t.test/p?a=1&b=2', (url) => `https://t.test/c/${plan.targets.indexOf(url)}`) };
};

describe('tracking: the html rewrite', () => {
  it('replaces only the href attributes of tracked links and adds the pixel before </body>; every other byte stays', () => {
    const html = '<html><body>\n<p class="x">Hi <a  HREF = "https://a.test/x?y=1&amp;z=2"  title="t">A</a></p>\n</body>\n</html>';
    const { plan, out } = track(html);
    assert.deepEqual(plan.targets, ['https://a.test/x?y=1&z=2'], 'the URL as a browser reads it');
    assert.equal(
      out,
      '<html><body>\n<p class="x">Hi <a  href="https://t.test/c/0"  title="t">A</a></p>\n' +
        '<img src="https://t.test/p?a=1&amp;b=2" width="1" height="1" alt="" style="width:1px;height:1px;border:0;margin:0;padding:0" />' +
        '</body>\n</html>',
    );
  });

  it('reads unquoted, single-quoted and space-padded hrefs as a browser does, and each distinct URL once', () => {
    const html = "<a href=http://a.test/1>1</a><a href='https://a.test/2'>2</a><a href=' http://a.test/1 '>again</a>";
    const { plan, out } = track(html);
    assert.deepEqual(plan.targets, ['http://a.test/1', 'https://a.test/2']);
    assert.equal(out.match(/href="https:\/\/t\.test\/c\/0"/g)?.length, 2);
  });

  it('leaves mailto:, tel:, relative, fragment and marked links, links inside svg, and what skip names', () => {
    const html =
      '<a href="mailto:a@b.test">m</a><a href="tel:+1">t</a><a href="/x">r</a><a href="#top">f</a>' +
      '<a data-wy-no-track href="https://a.test/private">p</a><svg><a href="https://a.test/svg">s</a></svg>' +
      '<a href="https://a.test/unsubscribe">u</a><a href="javascript:alert(1)">j</a><a>none</a>';
    const { plan, out } = track(html, (url) => url === 'https://a.test/unsubscribe');
    assert.deepEqual(plan.targets, []);
    assert.equal(
      out,
      `${html}<img src="https://t.test/p?a=1&amp;b=2" width="1" height="1" alt="" style="width:1px;height:1px;border:0;margin:0;padding:0" />`,
    );
  });

  it('puts the pixel at the end of a fragment, and before </html> when the body has no end tag', () => {
    assert.match(track('<p>Hi</p>').out, /^<p>Hi<\/p><img /);
    assert.match(track('<html><p>Hi</p></html>').out, /^<html><p>Hi<\/p><img [^>]+\/><\/html>$/);
  });

  it('without click tracking, links are not even looked at; without a pixel, the html is unchanged', () => {
    const html = '<a href="https://a.test/">a</a>';
    const plan = planHtml(html, { links: false, skip: () => false });
    assert.deepEqual(plan.targets, []);
    assert.equal(renderTracked(html, plan, null, null), html);
  });
});
