import { SEO } from '../thresholds';
import { charLength, isBlank } from '../text';
import { warn, type SeoRule } from '../types';

/** A missing description is a warning, not an error: search engines then write a snippet from the body. */
export const metaDescriptionRules: SeoRule = ({ item }) => {
  if (isBlank(item.meta_description)) {
    return [
      warn(
        'meta_description',
        'meta_description_missing',
        'No meta description; search engines will pick a snippet from the body instead.',
      ),
    ];
  }
  const length = charLength(item.meta_description!);
  if (length < SEO.metaDescriptionMin) {
    return [
      warn(
        'meta_description',
        'meta_description_too_short',
        `The meta description is ${length} characters; aim for ${SEO.metaDescriptionMin}–${SEO.metaDescriptionMax}.`,
      ),
    ];
  }
  if (length > SEO.metaDescriptionMax) {
    return [
      warn(
        'meta_description',
        'meta_description_too_long',
        `The meta description is ${length} characters; search results cut it after about ${SEO.metaDescriptionMax}.`,
      ),
    ];
  }
  return [];
};
