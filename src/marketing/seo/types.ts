import type { BodyOutline } from './html';

export type SeoLevel = 'error' | 'warn';

/** One problem: its level, the column to fix, a stable snake_case code and a sentence for people. */
export interface SeoFinding {
  level: SeoLevel;
  field: string;
  code: string;
  message: string;
}

export interface SeoCheckResult {
  /** False only when an error exists. */
  ok: boolean;
  /** 100 − 15 × errors − 5 × warnings; no floor, so it can go below 0. */
  score: number;
  findings: SeoFinding[];
}

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
