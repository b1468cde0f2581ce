import assert from 'node:assert/strict';
import { SEO_RULE_CATALOGUE } from '../../../src/marketing/seo/catalogue';
import { seoCheck } from '../../../src/marketing/seo/check';
import { goodItem, withBody } from './fixtures';

/** Items that, between them, break every rule. */
const battery = [
  goodItem({
    title: null,
    slug: null,
    body: null,
    meta_description: null,
    featured_image_url: null,
    target_keyword: null,
    canonical_url: '/relative',
  }),
  goodItem({ title: 'Short', slug: 'Bad_Slug', meta_description: 'Too short.' }),
  goodItem({ title: 'x'.repeat(70), slug: `a-${'b'.repeat(80)}`, meta_description: 'x'.repeat(200), featured_image_alt: null }),
  withBody(
    '<h1>A</h1><h1>B</h1><h3>C</h3><h2>D</h2><h4></h4><p>Opening</p><img src="/x.png"><a href="">e</a><a href="javascript:x">f</a> [^missing] {{source}}',
  ),
];

describe('SEO check: the documented rule catalogue', () => {
  const found = battery.flatMap((item) => seoCheck(item).findings);

  it('every code the rules emit is documented, with its level and field', () => {
    for (const f of found) {
      const doc = SEO_RULE_CATALOGUE.find((r) => r.code === f.code);
      assert.ok(doc, `${f.code} is not in the catalogue`);
      assert.equal(doc.level, f.level, f.code);
      assert.ok(doc.field.split(/, | or /).includes(f.field), `${f.code}: field ${f.field} not in "${doc.field}"`);
    }
  });

  it('every documented code is emitted by some item', () => {
    const codes = new Set(found.map((f) => f.code));
    assert.deepEqual(
      SEO_RULE_CATALOGUE.map((r) => r.code).filter((c) => !codes.has(c)),
      [],
    );
  });

  it('codes are unique in the catalogue', () => {
    const codes = SEO_RULE_CATALOGUE.map((r) => r.code);
    assert.equal(new Set(codes).size, codes.length);
  });
});
