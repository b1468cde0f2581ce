import { SEO } from '../thresholds';
import { charLength, isBlank } from '../text';
import { error, warn, type SeoFinding, type SeoRule, type SeoSubject } from '../types';

/** The title search engines show: meta_title when set, else the item's title; `field` names the one to edit. */
export function seoTitleOf(item: SeoSubject): { field: 'meta_title' | 'title'; value: string } | null {
  if (!isBlank(item.meta_title)) return { field: 'meta_title', value: item.meta_title!.trim() };
  if (!isBlank(item.title)) return { field: 'title', value: item.title!.trim() };
  return null;
}

export const titleRules: SeoRule = ({ item }) => {
  const findings: SeoFinding[] = [];
  if (isBlank(item.title)) findings.push(error('title', 'title_missing', 'The item has no title.'));
  const shown = seoTitleOf(item);
  if (!shown) return findings;
  const length = charLength(shown.value);
  if (length < SEO.titleMin) {
    findings.push(
      warn(
        shown.field,
        'title_too_short',
        `The ${shown.field} is ${length} characters; aim for ${SEO.titleMin}–${SEO.titleMax} so it says enough in search results.`,
      ),
    );
  } else if (length > SEO.titleMax) {
    findings.push(
      warn(shown.field, 'title_too_long', `The ${shown.field} is ${length} characters; search results cut it after about ${SEO.titleMax}.`),
    );
  }
  return findings;
};
