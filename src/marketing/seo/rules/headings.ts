import { clip } from '../text';
import { warn, type SeoFinding, type SeoRule } from '../types';

/**
 * Heading outline of the body. The page's title is its top level, so the body starts at H2 (an H1 is allowed and
 * resets the outline); a heading deeper than one below the previous one skips a level.
 */
export const headingRules: SeoRule = ({ body }) => {
  const findings: SeoFinding[] = [];
  const h1s = body.headings.filter((h) => h.level === 1).length;
  if (h1s > 1) findings.push(warn('body', 'multiple_h1', `The body has ${h1s} H1 headings; a page should have one.`));
  let previous = 1;
  let seenH2 = false;
  for (const h of body.headings) {
    const label = h.text ? `H${h.level} "${clip(h.text, 40)}"` : `An empty H${h.level}`;
    if (!h.text) findings.push(warn('body', 'heading_empty', `${label} has no text.`));
    if (h.level > 2 && !seenH2 && previous === 1) {
      findings.push(warn('body', 'heading_order', `${label} comes before any H2; start sections at H2.`));
    } else if (h.level > previous + 1) {
      findings.push(warn('body', 'heading_level_skipped', `${label} follows an H${previous}; use an H${previous + 1} here.`));
    }
    if (h.level === 2) seenH2 = true;
    previous = h.level;
  }
  return findings;
};
