import assert from 'node:assert/strict';
import { findingsOf, goodItem } from './fixtures';

const x = (n: number) => 'x'.repeat(n);

describe('SEO check: title, meta description, slug, canonical URL', () => {
  describe('title', () => {
    it('a missing or blank title is an error on title', () => {
      for (const title of [null, '', '   ']) {
        assert.deepEqual(
          findingsOf(goodItem({ title }), 'title_missing').map((f) => [f.level, f.field]),
          [['error', 'title']],
        );
      }
    });

    it('a title under 30 characters is a warning; 30 is fine', () => {
      assert.deepEqual(
        findingsOf(goodItem({ title: `CRM software ${x(16)}` }), 'title_too_short').map((f) => [f.level, f.field]),
        [['warn', 'title']],
      );
      assert.equal(findingsOf(goodItem({ title: `CRM software ${x(17)}` }), 'title_too_short').length, 0);
    });

    it('a title over 60 characters is a warning; 60 is fine', () => {
      assert.equal(findingsOf(goodItem({ title: `CRM software ${x(47)}` }), 'title_too_long').length, 0);
      assert.deepEqual(
        findingsOf(goodItem({ title: `CRM software ${x(48)}` }), 'title_too_long').map((f) => [f.level, f.field]),
        [['warn', 'title']],
      );
    });

    it('characters are counted as people count them (an accented letter or emoji is one)', () => {
      assert.equal(findingsOf(goodItem({ title: `CRM software ${'é'.repeat(46)}🚀` }), 'title_too_long').length, 0);
    });

    it('meta_title, when set, is the title measured and the field named', () => {
      const long = goodItem({ meta_title: `CRM software ${x(60)}` });
      assert.deepEqual(
        findingsOf(long, 'title_too_long').map((f) => f.field),
        ['meta_title'],
      );
      const fixes = goodItem({ title: 'CRM software', meta_title: 'CRM software for small teams: a practical guide' });
      assert.equal(findingsOf(fixes, 'title_too_short').length, 0);
    });
  });

  describe('meta description', () => {
    it('a missing meta description is a warning on meta_description', () => {
      for (const meta_description of [null, ' ']) {
        assert.deepEqual(
          findingsOf(goodItem({ meta_description }), 'meta_description_missing').map((f) => [f.level, f.field]),
          [['warn', 'meta_description']],
        );
      }
    });

    it('under 70 characters is a warning, 70 to 160 is fine, over 160 is a warning', () => {
      const d = (n: number) => goodItem({ meta_description: `CRM software ${x(n - 13)}` });
      assert.equal(findingsOf(d(69), 'meta_description_too_short').length, 1);
      assert.equal(findingsOf(d(70), 'meta_description_too_short').length, 0);
      assert.equal(findingsOf(d(160), 'meta_description_too_long').length, 0);
      assert.deepEqual(
        findingsOf(d(161), 'meta_description_too_long').map((f) => [f.level, f.field]),
        [['warn', 'meta_description']],
      );
    });
  });

  describe('slug', () => {
    it('a missing slug is an error on slug', () => {
      for (const slug of [null, '']) {
        assert.deepEqual(
          findingsOf(goodItem({ slug }), 'slug_missing').map((f) => [f.level, f.field]),
          [['error', 'slug']],
        );
      }
    });

    it('a slug that is not lowercase words joined by single hyphens is a warning', () => {
      for (const slug of [
        'CRM-software',
        'crm_software',
        'crm software',
        'crm--software',
        '-crm-software',
        'crm-software-',
        'crm/software',
        'crm-sóftware',
      ]) {
        assert.deepEqual(
          findingsOf(goodItem({ slug }), 'slug_format').map((f) => [f.level, f.field]),
          [['warn', 'slug']],
          slug,
        );
      }
      assert.equal(findingsOf(goodItem({ slug: 'crm-software-2026' }), 'slug_format').length, 0);
    });

    it('a slug over 75 characters is a warning', () => {
      assert.equal(findingsOf(goodItem({ slug: `crm-software-${'a'.repeat(62)}` }), 'slug_too_long').length, 0);
      assert.equal(findingsOf(goodItem({ slug: `crm-software-${'a'.repeat(63)}` }), 'slug_too_long').length, 1);
    });
  });

  describe('canonical URL', () => {
    it('an unset canonical URL is fine', () => {
      assert.equal(findingsOf(goodItem({ canonical_url: null }), 'canonical_url_invalid').length, 0);
      assert.equal(findingsOf(goodItem({ canonical_url: '' }), 'canonical_url_invalid').length, 0);
    });

    it('a canonical URL that is not an absolute http(s) URL is an error on canonical_url', () => {
      for (const canonical_url of [
        '/blog/crm',
        'example.com/blog',
        'ftp://example.com/x',
        'javascript:alert(1)',
        'https://',
        'not a url',
      ]) {
        assert.deepEqual(
          findingsOf(goodItem({ canonical_url }), 'canonical_url_invalid').map((f) => [f.level, f.field]),
          [['error', 'canonical_url']],
          canonical_url,
        );
      }
      for (const canonical_url of ['https://example.com/blog/crm', 'http://example.com/x?y=1']) {
        assert.equal(findingsOf(goodItem({ canonical_url }), 'canonical_url_invalid').length, 0, canonical_url);
      }
    });
  });
});
