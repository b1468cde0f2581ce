import type { ImageProfile } from '../brand/service';

/** What of the brand profile an image prompt carries as text (reference images travel separately). */
export type PromptProfile = Pick<ImageProfile, 'prompt_block' | 'avoid_list'>;

/** The article fields a prompt describes. */
export interface PromptItem {
  title: string;
  excerpt: string | null;
  target_keyword: string | null;
}

export const NO_TEXT = 'No text or lettering in the image.';
/** Alt text a screen reader reads comfortably. */
export const MAX_ALT_CHARACTERS = 125;
/** The subject (ours or the model's) is cut to this, so the brand block always fits the Images API's prompt limit. */
const MAX_SUBJECT_CHARACTERS = 1_000;
const MAX_PROMPT_CHARACTERS = 4_000;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** At most `max` characters, cut at a word boundary with an ellipsis when it had to be cut. */
export function clip(text: string, max: number): string {
  const plain = squash(text);
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:–-]+$/, '')}…`;
}

/** The first `n` sentences of a text. */
export function firstSentences(text: string, n: number): string {
  return squash(text)
    .split(/(?<=[.!?])\s+/)
    .slice(0, n)
    .join(' ');
}

/** What the hero shows: the article's title, excerpt and keyword. */
export function heroSubject(item: PromptItem): string {
  const parts = [`A featured image for an article titled "${squash(item.title)}".`];
  if (item.excerpt?.trim()) parts.push(`The article is about: ${squash(item.excerpt)}`);
  if (item.target_keyword?.trim()) parts.push(`Topic: ${squash(item.target_keyword)}.`);
  return parts.join(' ');
}

/** What a section image shows: its heading and the first two sentences below it. */
export function sectionSubject(item: PromptItem, heading: string, text: string): string {
  const lead = firstSentences(text, 2);
  return `An illustration for the section "${squash(heading)}" of an article titled "${squash(item.title)}".${lead ? ` The section says: ${lead}` : ''}`;
}

/** The prompt sent to the Images API: the subject, the brand's sentences, what to avoid, and no lettering. */
export function imagePrompt(subject: string, profile: PromptProfile): string {
  const avoid = profile.avoid_list.map(squash).filter(Boolean);
  const tail = [avoid.length > 0 ? `Avoid: ${avoid.join('; ')}.` : '', NO_TEXT].filter(Boolean).join('\n\n');
  const head = clip(subject, MAX_SUBJECT_CHARACTERS);
  const room = MAX_PROMPT_CHARACTERS - head.length - tail.length - 4;
  const brand = profile.prompt_block.trim() ? clip(profile.prompt_block, Math.max(0, room)) : '';
  return [head, brand, tail].filter(Boolean).join('\n\n').slice(0, MAX_PROMPT_CHARACTERS);
}

/** Alt text: plain, one line, at most 125 characters. */
export function altText(text: string): string {
  return clip(text.replace(/<[^>]*>/g, ''), MAX_ALT_CHARACTERS);
}
