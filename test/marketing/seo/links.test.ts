import assert from 'node:assert/strict';
import { findingsOf, withBody } from './fixtures';

const both = '<a href="/pricing">pricing</a> <a href="https://example.org/study">study</a>';

describe('SEO check: links', () => {
  it('a link with an empty href (blank, "#" or none) is an error on body', () => {
    for (const link of ['<a href="">x</a>', '<a href=" ">x</a>', '<a href="#">x</a>', '<a>x</a>', '<a href>x</a>']) {
      assert.deepEqual(
        findingsOf(withBody(`<p>${both} ${link}</p>`), 'link_href_empty').map((f) => [f.level, f.field]),
        [['error', 'body']],
        link,
      );
    }
  });

  it('an anchor target (<a id> or <a name> without href) is not a link', () => {
    assert.equal(findingsOf(withBody(`<p>${both} <a id="top"></a><a name="old"></a></p>`), 'link_href_empty').length, 0);
  });

  it('a javascript: or data: href is an error on body', () => {
    for (const href of ['javascript:void(0)', ' JavaScript:alert(1)', 'data:text/html,hi']) {
      assert.equal(findingsOf(withBody(`<p>${both} <a href="${href}">x</a></p>`), 'link_href_unsafe').length, 1, href);
    }
  });

  it('a body without internal links is a warning; relative and site-relative paths count as internal', () => {
    assert.deepEqual(
      findingsOf(withBody('<p><a href="https://example.org/">x</a></p>'), 'no_internal_links').map((f) => [f.level, f.field]),
      [['warn', 'body']],
    );
    for (const href of ['/pricing', 'pricing', '../guides/crm', '?page=2']) {
      assert.equal(findingsOf(withBody(`<p><a href="${href}">x</a></p>`), 'no_internal_links').length, 0, href);
    }
  });

  it('an absolute link to the canonical URL host is internal, not outbound', () => {
    const body = '<p><a href="https://www.acme.test/pricing">x</a></p>';
    const item = { canonical_url: 'https://www.acme.test/blog/crm' };
    assert.equal(findingsOf(withBody(body, item), 'no_internal_links').length, 0);
    assert.equal(findingsOf(withBody(body, item), 'no_outbound_links').length, 1);
  });

  it('a body without outbound links is a warning; in-page anchors, mailto: and tel: are neither kind', () => {
    const body = '<p><a href="/x">x</a> <a href="#faq">faq</a> <a href="mailto:a@b.test">mail</a> <a href="tel:+1555">call</a></p>';
    assert.deepEqual(
      findingsOf(withBody(body), 'no_outbound_links').map((f) => [f.level, f.field]),
      [['warn', 'body']],
    );
    assert.equal(findingsOf(withBody('<p><a href="//cdn.example.org/paper.pdf">paper</a></p>'), 'no_outbound_links').length, 0);
  });

  it('an empty body gets body_empty, not link warnings', () => {
    assert.equal(findingsOf(withBody(''), 'no_internal_links').length, 0);
    assert.equal(findingsOf(withBody(''), 'no_outbound_links').length, 0);
  });
});
