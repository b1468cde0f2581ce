import assert from 'node:assert/strict';
import { scoreOf, seoCheck } from '../../../src/marketing/seo/check';
import type { SeoFinding } from '../../../src/marketing/seo/types';
import { goodItem } from './fixtures';

const finding = (level: 'error' | 'warn'): SeoFinding => ({ level, field: 'body', code: 'x', message: 'x' });

describe('SEO check: result', () => {
  it('a well-prepared item has no findings, ok true and score 100', () => {
    assert.deepEqual(seoCheck(goodItem()), { ok: true, score: 100, findings: [] });
  });

  it('score is 100 minus 15 per error minus 5 per warning', () => {
    assert.equal(scoreOf([finding('error'), finding('warn'), finding('warn')]), 100 - 15 - 10);
    assert.equal(scoreOf([finding('warn')]), 95);
    assert.equal(scoreOf([]), 100);
  });

  it('ok is false only when an error exists: warnings alone keep it true', () => {
    const warned = seoCheck(goodItem({ meta_description: null }));
    assert.ok(warned.findings.length > 0 && warned.findings.every((f) => f.level === 'warn'));
    assert.equal(warned.ok, true);
    assert.equal(warned.score, 100 - 5 * warned.findings.length);
    const failed = seoCheck(goodItem({ slug: null }));
    assert.equal(failed.ok, false);
  });

  it('every finding carries level, field, code and message, and the score matches the findings', () => {
    const result = seoCheck({
      title: null,
      slug: 'Bad Slug',
      body: '<h3></h3><img src="x.png"><a href="">x</a> {{source}}',
      meta_title: null,
      meta_description: 'short',
      target_keyword: 'crm',
      featured_image_url: 'https://x.test/a.png',
      featured_image_alt: null,
      canonical_url: 'ftp://x',
    });
    assert.equal(result.ok, false);
    for (const f of result.findings) {
      assert.deepEqual(Object.keys(f).sort(), ['code', 'field', 'level', 'message']);
      assert.ok(f.level === 'error' || f.level === 'warn');
      assert.match(f.code, /^[a-z0-9_]+$/);
      assert.ok(f.message.length > 0);
    }
    assert.equal(result.score, scoreOf(result.findings));
  });

  it('is pure: the same item gives the same result and is not changed', () => {
    const item = goodItem({ meta_description: null });
    const copy = structuredClone(item);
    assert.deepEqual(seoCheck(item), seoCheck(item));
    assert.deepEqual(item, copy);
  });

  it('an item with nothing filled in gets findings, never an exception', () => {
    const result = seoCheck({
      title: null,
      slug: null,
      body: null,
      meta_title: null,
      meta_description: null,
      target_keyword: null,
      featured_image_url: null,
      featured_image_alt: null,
      canonical_url: null,
    });
    assert.equal(result.ok, false);
    assert.deepEqual(
      result.findings
        .filter((f) => f.level === 'error')
        .map((f) => f.code)
        .sort(),
      ['body_empty', 'slug_missing', 'title_missing'],
    );
  });
});
