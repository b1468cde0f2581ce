import assert from 'node:assert/strict';
import { citationDefinition, citationMarker, scanCitations } from '../../../src/marketing/seo/citations';
import { findingsOf, goodItem, withBody } from './fixtures';

describe('SEO check: citation markers', () => {
  it('a footnote reference [^id] with a matching definition "[^id]: …" is accepted', () => {
    const body = `<p>Churn fell 30%${citationMarker('grid:8d1c')} and "it just works"${citationMarker('testimonial:41')}.</p>
      <ol><li>${citationDefinition('grid:8d1c', 'Acme before/after grid')}</li><li>${citationDefinition('testimonial:41', 'Jane Doe, Acme')}</li></ol>`;
    assert.equal(findingsOf(withBody(body), 'citation_unresolved').length, 0);
    assert.equal(findingsOf(withBody(body), 'citation_placeholder').length, 0);
  });

  it('a reference without its definition is an error on body, once per source id', () => {
    const found = findingsOf(withBody('<p>A[^kb:1] B[^kb:1] C[^kb:2]</p><p>[^kb:2]: defined</p>'), 'citation_unresolved');
    assert.deepEqual(
      found.map((f) => [f.level, f.field]),
      [['error', 'body']],
    );
    assert.match(found[0].message, /\[\^kb:1\]/);
  });

  it('a definition must open its own block: a "[^id]:" in mid-sentence does not define it', () => {
    assert.equal(findingsOf(withBody('<p>See this[^a]: it matters.</p>'), 'citation_unresolved').length, 1);
  });

  it('placeholder markers are errors on body, once per distinct marker', () => {
    const markers = [
      '[citation needed]',
      '[Citation Needed]',
      '[source]',
      '[ref?]',
      '[needs source]',
      '[TODO: find stat]',
      '[TBD]',
      '[TK]',
      '[[cite:acme]]',
      '{{source}}',
      '{{ citation }}',
      '[^]',
    ];
    for (const marker of markers) {
      assert.deepEqual(
        findingsOf(withBody(`<p>Churn fell 30% ${marker}.</p>`), 'citation_placeholder').map((f) => [f.level, f.field]),
        [['error', 'body']],
        marker,
      );
    }
    assert.equal(findingsOf(withBody('<p>a {{source}} b {{source}} c [TBD]</p>'), 'citation_placeholder').length, 2);
  });

  it('placeholders in title, meta_title or meta_description are errors on that field', () => {
    const item = goodItem({
      title: 'CRM software for {{audience}}',
      meta_title: 'CRM software [TBD] for teams',
      meta_description: 'CRM software [citation needed]',
    });
    assert.deepEqual(
      findingsOf(item, 'citation_placeholder')
        .map((f) => f.field)
        .sort(),
      ['meta_description', 'meta_title', 'title'],
    );
  });

  it('ordinary brackets and markup attributes are not markers', () => {
    const body = '<p>Plans [monthly or yearly] and <code>arr[0]</code>.</p><p data-x="{{ignored}}">ok</p>';
    assert.equal(findingsOf(withBody(body), 'citation_placeholder').length, 0);
    assert.equal(findingsOf(withBody(body), 'citation_unresolved').length, 0);
  });

  it('citationMarker refuses a source id outside the accepted form', () => {
    assert.equal(citationMarker('case_study.v2-1'), '[^case_study.v2-1]');
    assert.throws(() => citationMarker('has space'));
    assert.throws(() => citationMarker(''));
  });

  it('scanCitations reports unresolved ids and placeholders in order', () => {
    assert.deepEqual(scanCitations('x[^b] {{y}} [^a]\n[^b]: def\ny[^c]'), { unresolved: ['a', 'c'], placeholders: ['{{y}}'] });
  });
});
