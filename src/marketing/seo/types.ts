import type { z } from 'zod';
import type { seoCheckSchema, seoFindingSchema } from './checkJson';
import type { BodyOutline } from './html';

/** One problem: its level, the column to fix, a stable snake_case code and a sentence for people. */
export type SeoFinding = z.output<typeof seoFindingSchema>;
export type SeoLevel = SeoFinding['level'];

/** ok is false only when an error exists; score is 100 − 15 × errors − 5 × warnings, with no floor. */
export type SeoCheckResult = z.output<typeof seoCheckSchema>;

/** What the check reads of a content item; a ContentItem fits as it is. `body` is HTML. */
export interface SeoSubject {
  title: string | null;
  slug: string | null;
  body: string | null;
  meta_title: string | null;
  meta_description: string | null;
  target_keyword: string | null;
  featured_image_url: string | null;
  featured_image_alt: string | null;
  canonical_url: string | null;
}

export interface SeoInput {
  item: SeoSubject;
  body: BodyOutline;
}

/** A rule group: reads the item and its body outline, returns its findings (none when all is well). */
export type SeoRule = (input: SeoInput) => SeoFinding[];

export const error = (field: string, code: string, message: string): SeoFinding => ({ level: 'error', field, code, message });
export const warn = (field: string, code: string, message: string): SeoFinding => ({ level: 'warn', field, code, message });
