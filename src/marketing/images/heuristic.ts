import type { PlannedImage, SkippedHeading } from '../../../workflows/contentImages.contract';
import { altText, heroSubject, imagePrompt, sectionSubject, type PromptItem, type PromptProfile } from './prompt';
import { normalizedHeading, wordCount, type SectionInfo } from './sections';

/** The article fields planning reads. */
export interface PlanItem extends PromptItem {
  featured_image_url: string | null;
}

export interface PlanOptions {
  /** Plan a hero even when the item has a featured image. */
  replaceFeatured: boolean;
  /** Section images at most. */
  maxSections: number;
}

export interface PlanDraft {
  /** The hero first when planned, then sections in body order. */
  images: PlannedImage[];
  skipped: SkippedHeading[];
}

/** A section with fewer words says too little to illustrate. */
export const MIN_SECTION_WORDS = 40;
export const IMAGE_SIZE = '1536x1024' as const;

/** Headings of an article's frame rather than its matter; their sections get no image. */
const GENERIC_HEADINGS = [
  'introduction',
  'intro',
  'overview',
  'conclusion',
  'conclusions',
  'summary',
  'in summary',
  'in conclusion',
  'faq',
  'faqs',
  'frequently asked questions',
  'final thoughts',
  'final words',
  'key takeaways',
  'takeaways',
  'tl;dr',
  'tldr',
  'references',
  'sources',
  'related',
  'related posts',
  'related articles',
  'related reading',
  'further reading',
  'resources',
  'table of contents',
  'contents',
  'wrapping up',
  'the bottom line',
  'bottom line',
  'about the author',
  'next steps',
];

/** "Introduction", "3. Conclusion", "FAQ: roof repairs", "Key takeaways —" … (a leading number and trailing clause aside). */
export function isGenericHeading(heading: string): boolean {
  const text = normalizedHeading(heading)
    .replace(/^(?:\d+[.):]?|step \d+[.):]?)\s+/, '')
    .replace(/[\s.!?:–—-]+$/, '');
  return GENERIC_HEADINGS.some((g) => text === g || new RegExp(`^${g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[:–—-]`).test(text));
}

/** Whether the hero is planned: no featured image yet, or the run was asked to replace it. */
export const heroWanted = (item: PlanItem, options: PlanOptions) => item.featured_image_url === null || options.replaceFeatured;

export function heroImage(item: PlanItem, prompt: string, alt: string): PlannedImage {
  return { slot: 'hero', heading: null, headingIndex: null, prompt, alt: altText(alt || item.title), size: IMAGE_SIZE };
}

export function sectionImage(item: PlanItem, section: SectionInfo, prompt: string, alt: string): PlannedImage {
  return {
    slot: `section:${section.index}`,
    heading: section.heading,
    headingIndex: section.index,
    prompt,
    alt: altText(alt || section.heading || item.title),
    size: IMAGE_SIZE,
  };
}

/**
 * The documented plan without a model: the hero when wanted; then, in body order, each H2 with no image below it, a
 * heading that is not generic, and at least 40 words of text, up to `maxSections` (the rest `over_limit`).
 */
export function planHeuristic(item: PlanItem, sections: SectionInfo[], profile: PromptProfile, options: PlanOptions): PlanDraft {
  const images: PlannedImage[] = [];
  if (heroWanted(item, options)) images.push(heroImage(item, imagePrompt(heroSubject(item), profile), item.title));
  const skipped: SkippedHeading[] = [];
  let planned = 0;
  for (const section of sections) {
    const skip = (reason: SkippedHeading['reason']) => skipped.push({ index: section.index, heading: section.heading, reason });
    if (section.has_image) skip('has_image');
    else if (!section.heading || isGenericHeading(section.heading) || wordCount(section.text) < MIN_SECTION_WORDS)
      skip('adds_no_information');
    else if (planned >= options.maxSections) skip('over_limit');
    else {
      planned += 1;
      const prompt = imagePrompt(sectionSubject(item, section.heading, section.text), profile);
      images.push(sectionImage(item, section, prompt, section.heading));
    }
  }
  return { images, skipped };
}
