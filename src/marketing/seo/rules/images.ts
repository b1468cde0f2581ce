import { clip, isBlank } from '../text';
import { warn, type SeoFinding, type SeoRule } from '../types';

/** Every body image needs alt text (an empty alt counts as missing); so does the featured image. */
export const imageRules: SeoRule = ({ item, body }) => {
  const findings: SeoFinding[] = [];
  body.images.forEach((img, n) => {
    if (isBlank(img.alt)) {
      const which = img.src ? `"${clip(img.src)}"` : `number ${n + 1}`;
      findings.push(warn('body', 'image_alt_missing', `Image ${which} in the body has no alt text.`));
    }
  });
  if (isBlank(item.featured_image_url)) {
    findings.push(warn('featured_image_url', 'featured_image_missing', 'No featured image; shares and result cards will show none.'));
  } else if (isBlank(item.featured_image_alt)) {
    findings.push(warn('featured_image_alt', 'featured_image_alt_missing', 'The featured image has no alt text.'));
  }
  return findings;
};
