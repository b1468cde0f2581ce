import assert from 'node:assert/strict';
import { MAX_SLUG, SLUG_PATTERN, slugify } from '../../../src/marketing/categories/slug';

describe('Category slugs (unit)', () => {
  it('a slug is the name in lowercase with accents dropped and every run of other characters one hyphen', () => {
    assert.equal(slugify('Case Studies & Wins'), 'case-studies-wins');
    assert.equal(slugify('  Café  Déjà Vu!! '), 'cafe-deja-vu');
    assert.equal(slugify('2026 Plans / Q1'), '2026-plans-q1');
    assert.equal(slugify('Ünïcödé—Straße'), 'unicode-strasse');
    assert.equal(slugify('Æsir Łódź Øresund'), 'aesir-lodz-oresund');
  });

  it('a name without ASCII letters or digits gives an empty slug', () => {
    assert.equal(slugify('日本語'), '');
    assert.equal(slugify('!!!'), '');
  });

  it('a long name gives at most 100 characters, cut at a hyphen when one is near, never ending in one', () => {
    const slug = slugify('word '.repeat(40));
    assert.ok(slug.length <= MAX_SLUG && !slug.endsWith('-'), slug);
    assert.match(slug, SLUG_PATTERN);
    assert.equal(slugify('x'.repeat(150)), 'x'.repeat(100));
  });

  it('every derived slug matches the slug rule', () => {
    for (const name of ['A', 'a--b', '-lead-', 'Tips_and_Tricks', 'C++ & C#']) {
      const slug = slugify(name);
      assert.match(slug, SLUG_PATTERN, `${name} → ${slug}`);
    }
  });
});
