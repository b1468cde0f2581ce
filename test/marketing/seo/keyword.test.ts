import assert from 'node:assert/strict';
import { findingsOf, goodItem, withBody } from './fixtures';

const fieldsOf = (code: string, ...args: Parameters<typeof goodItem>) => findingsOf(goodItem(...args), code).map((f) => [f.level, f.field]);

describe('SEO check: target keyword', () => {
  it('a missing target keyword is one warning on target_keyword and skips the placement checks', () => {
    const item = goodItem({ target_keyword: null, title: 'Something else entirely, but long enough' });
    assert.deepEqual(
      findingsOf(item, 'target_keyword_missing').map((f) => [f.level, f.field]),
      [['warn', 'target_keyword']],
    );
    assert.equal(findingsOf(item, 'keyword_not_in_title').length, 0);
  });

  it('a keyword missing from the title is a warning on title (or on meta_title when that is set)', () => {
    assert.deepEqual(fieldsOf('keyword_not_in_title', { title: 'A practical guide for small teams in 2026' }), [['warn', 'title']]);
    assert.deepEqual(fieldsOf('keyword_not_in_title', { meta_title: 'A practical guide for small teams in 2026' }), [
      ['warn', 'meta_title'],
    ]);
    assert.deepEqual(fieldsOf('keyword_not_in_title', { title: 'x', meta_title: 'The best CRM software for small teams' }), []);
  });

  it('matching ignores case, accents, punctuation and spacing but respects word boundaries', () => {
    assert.deepEqual(fieldsOf('keyword_not_in_title', { title: 'Choosing crm-software: a guide for small teams' }), []);
    assert.deepEqual(
      fieldsOf('keyword_not_in_title', {
        target_keyword: 'café crm',
        slug: 'cafe-crm',
        title: 'The CAFE CRM guide for small teams, 2026 edition',
      }),
      [],
    );
    assert.deepEqual(fieldsOf('keyword_not_in_title', { title: 'Choosing CRM softwares: a guide for small teams' }), [['warn', 'title']]);
  });

  it('a keyword missing from the first H1/H2 of the body is a warning on body', () => {
    const body = '<h2>Getting started</h2><p>CRM software helps.</p><h2>CRM software compared</h2>';
    assert.deepEqual(
      findingsOf(withBody(body), 'keyword_not_in_heading').map((f) => [f.level, f.field]),
      [['warn', 'body']],
    );
    assert.equal(
      findingsOf(withBody('<h3>CRM software</h3><h1>CRM software basics</h1><p>CRM software</p>'), 'keyword_not_in_heading').length,
      0,
    );
  });

  it('a body without an H1 or H2 gets the heading warning too', () => {
    const [f] = findingsOf(withBody('<p>CRM software helps.</p><h3>CRM software</h3>'), 'keyword_not_in_heading');
    assert.match(f.message, /no H1 or H2/);
  });

  it('a keyword missing from the opening paragraph is a warning on body', () => {
    const late = '<h2>CRM software</h2><p>Teams grow.</p><p>CRM software helps.</p>';
    assert.deepEqual(
      findingsOf(withBody(late), 'keyword_not_in_opening').map((f) => [f.level, f.field]),
      [['warn', 'body']],
    );
    assert.equal(findingsOf(withBody('<h2>CRM software</h2><p>Why CRM Software?</p>'), 'keyword_not_in_opening').length, 0);
  });

  it('a body without paragraphs is read from its first words', () => {
    assert.equal(findingsOf(withBody('<div>CRM software, explained.</div>'), 'keyword_not_in_opening').length, 0);
    assert.equal(findingsOf(withBody(`<div>${'filler '.repeat(120)} CRM software</div>`), 'keyword_not_in_opening').length, 1);
  });

  it('a keyword missing from a set meta description is a warning on meta_description; none when there is no description', () => {
    assert.deepEqual(
      fieldsOf('keyword_not_in_meta_description', {
        meta_description: 'How small teams keep every customer conversation in one place, set up in a single day.',
      }),
      [['warn', 'meta_description']],
    );
    assert.deepEqual(fieldsOf('keyword_not_in_meta_description', { meta_description: null }), []);
  });

  it('a keyword missing from a set slug is a warning on slug', () => {
    assert.deepEqual(fieldsOf('keyword_not_in_slug', { slug: 'small-team-guide' }), [['warn', 'slug']]);
    assert.deepEqual(fieldsOf('keyword_not_in_slug', { slug: null }), []);
  });
});
