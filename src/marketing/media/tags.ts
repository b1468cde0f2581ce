import { z } from 'zod';

export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 100;

/** Tags the product itself writes: approved brand imagery, images made for content, and the item they were made for. */
export const BRAND_REFERENCE_TAG = 'brand_reference';
export const CONTENT_IMAGE_TAG = 'content_image';
export const contentTag = (contentId: string) => `content:${contentId}`;

/** One tag: trimmed, 1..100 characters, no control characters; case is kept and matched exactly. */
export const tagSchema = z
  .string()
  .trim()
  .min(1, { error: 'a tag must not be empty' })
  .max(MAX_TAG_LENGTH, { error: `a tag must be at most ${MAX_TAG_LENGTH} characters` })
  .regex(/^[^\u0000-\u001f\u007f]+$/, { error: 'a tag must not contain control characters' });

/** A list of tags in a body: at most 50, duplicates dropped (first spelling kept). */
export const tagListSchema = z
  .array(tagSchema)
  .max(MAX_TAGS, { error: `at most ${MAX_TAGS} tags` })
  .transform((tags) => [...new Set(tags)]);

/** `current` plus `added` (appended in order, duplicates dropped) minus `removed`. */
export function mergeTags(current: string[], added: string[], removed: string[]): string[] {
  const gone = new Set(removed);
  return [...new Set([...current, ...added])].filter((t) => !gone.has(t));
}
