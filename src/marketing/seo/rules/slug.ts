import { SEO } from '../thresholds';
import { charLength, isBlank } from '../text';
import { error, warn, type SeoFinding, type SeoRule } from '../types';

const LOWERCASE_HYPHENATED = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const slugRules: SeoRule = ({ item }) => {
  if (isBlank(item.slug)) return [error('slug', 'slug_missing', 'The item has no slug, so it has no stable URL.')];
  const slug = item.slug!;
  const findings: SeoFinding[] = [];
  if (!LOWERCASE_HYPHENATED.test(slug)) {
    findings.push(
      warn(
        'slug',
        'slug_format',
        `The slug "${slug}" should be lowercase letters and digits joined by single hyphens (e.g. "crm-for-small-teams").`,
      ),
    );
  }
  if (charLength(slug) > SEO.slugMax) {
    findings.push(warn('slug', 'slug_too_long', `The slug is ${charLength(slug)} characters; keep it under ${SEO.slugMax + 1}.`));
  }
  return findings;
};
