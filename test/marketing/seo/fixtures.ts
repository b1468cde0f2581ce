import { seoCheck } from '../../../src/marketing/seo/check';
import type { SeoFinding, SeoSubject } from '../../../src/marketing/seo/types';

const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i % 50}`).join(' ');

/** A body that passes every rule: keyword in the first H2 and the opening, links both ways, alt text, defined citation. */
export const goodBody = [
  '<h2>Why CRM software pays off for small teams</h2>',
  '<p>Good CRM software keeps every customer conversation in one place.</p>',
  `<p>${filler(320)} It cut churn by 30%[^grid:acme-2026].</p>`,
  '<h3>Setting it up</h3>',
  '<p>See <a href="/pricing">our pricing</a> and <a href="https://example.org/study">the study</a>.</p>',
  '<img src="/media/a/setup.png" alt="The setup screen">',
  '<h2>Sources</h2>',
  '<p>[^grid:acme-2026]: Acme before/after grid, 2026.</p>',
].join('\n');

export function goodItem(overrides: Partial<SeoSubject> = {}): SeoSubject {
  return {
    title: 'CRM software for small teams: a practical guide',
    slug: 'crm-software-small-teams',
    body: goodBody,
    meta_title: null,
    meta_description: 'How CRM software helps small teams keep every customer conversation in one place, and how to set it up in a day.',
    target_keyword: 'CRM software',
    featured_image_url: 'https://cdn.example.com/hero.png',
    featured_image_alt: 'A team around a laptop',
    canonical_url: null,
    ...overrides,
  };
}

/** Findings of one code, so a test speaks about its own rule whatever the others say. */
export function findingsOf(item: SeoSubject, code: string): SeoFinding[] {
  return seoCheck(item).findings.filter((f) => f.code === code);
}

/** An item with `body` replaced by good fields around the given HTML. */
export const withBody = (body: string | null, overrides: Partial<SeoSubject> = {}) => goodItem({ body, ...overrides });

export { filler };
