import { SEO } from '../thresholds';
import { clip, containsPhrase, isBlank, words } from '../text';
import { warn, type SeoFinding, type SeoRule } from '../types';
import type { BodyOutline } from '../html';
import { seoTitleOf } from './title';

/** The first `<p>` with text; a body without paragraphs opens with its first words. */
function openingOf(body: BodyOutline): string {
  if (body.paragraphs.length) return body.paragraphs[0];
  return body.text.split(/\s+/).slice(0, SEO.openingWords).join(' ');
}

/**
 * The target keyword should appear, as a whole phrase (case, accents and punctuation aside), in the SEO title,
 * the first H1/H2 of the body, the opening paragraph, the meta description and the slug.
 */
export const keywordRules: SeoRule = ({ item, body }) => {
  if (isBlank(item.target_keyword)) {
    return [warn('target_keyword', 'target_keyword_missing', 'No target keyword; set one so the checks below can test placement.')];
  }
  const keyword = item.target_keyword!.trim();
  const quoted = `"${clip(keyword)}"`;
  const findings: SeoFinding[] = [];
  const title = seoTitleOf(item);
  if (title && !containsPhrase(title.value, keyword)) {
    findings.push(warn(title.field, 'keyword_not_in_title', `The target keyword ${quoted} is not in the ${title.field}.`));
  }
  const firstHeading = body.headings.find((h) => h.level <= 2);
  if (!firstHeading) {
    findings.push(warn('body', 'keyword_not_in_heading', `The body has no H1 or H2 to carry the target keyword ${quoted}.`));
  } else if (!containsPhrase(firstHeading.text, keyword)) {
    findings.push(
      warn(
        'body',
        'keyword_not_in_heading',
        `The first H${firstHeading.level} ("${clip(firstHeading.text)}") does not contain the target keyword ${quoted}.`,
      ),
    );
  }
  if (body.text && !containsPhrase(openingOf(body), keyword)) {
    findings.push(warn('body', 'keyword_not_in_opening', `The opening paragraph does not mention the target keyword ${quoted}.`));
  }
  if (!isBlank(item.meta_description) && !containsPhrase(item.meta_description, keyword)) {
    findings.push(
      warn('meta_description', 'keyword_not_in_meta_description', `The meta description does not contain the target keyword ${quoted}.`),
    );
  }
  if (!isBlank(item.slug) && !` ${words(item.slug!)} `.includes(` ${words(keyword)} `)) {
    findings.push(warn('slug', 'keyword_not_in_slug', `The slug does not contain the target keyword ${quoted}.`));
  }
  return findings;
};
