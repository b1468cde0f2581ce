import { readBody } from './html';
import { bodyRules } from './rules/body';
import { canonicalRules } from './rules/canonical';
import { citationRules } from './rules/citations';
import { headingRules } from './rules/headings';
import { imageRules } from './rules/images';
import { keywordRules } from './rules/keyword';
import { linkRules } from './rules/links';
import { metaDescriptionRules } from './rules/metaDescription';
import { slugRules } from './rules/slug';
import { titleRules } from './rules/title';
import { SEO } from './thresholds';
import type { SeoCheckResult, SeoFinding, SeoRule, SeoSubject } from './types';

/** In the order findings are reported: the fields an editor sees first, then the body. */
export const SEO_RULES: SeoRule[] = [
  titleRules,
  metaDescriptionRules,
  slugRules,
  canonicalRules,
  keywordRules,
  bodyRules,
  headingRules,
  imageRules,
  linkRules,
  citationRules,
];

/** The spec's formula exactly, with no floor: enough findings take the score below 0. */
export function scoreOf(findings: SeoFinding[]): number {
  const errors = findings.filter((f) => f.level === 'error').length;
  const warnings = findings.length - errors;
  return 100 - SEO.errorCost * errors - SEO.warningCost * warnings;
}

/** The pre-publish SEO check of a content item: pure, no I/O. */
export function seoCheck(item: SeoSubject): SeoCheckResult {
  const input = { item, body: readBody(item.body) };
  const findings = SEO_RULES.flatMap((rule) => rule(input));
  return { ok: !findings.some((f) => f.level === 'error'), score: scoreOf(findings), findings };
}
