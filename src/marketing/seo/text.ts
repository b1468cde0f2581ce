/**
 * Text as the keyword rules compare it: case, accents, punctuation and spacing do not matter, word boundaries do.
 * "CRM Software" matches "the best crm-software, compared" but not "CRM softwares".
 */
export function words(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function containsPhrase(haystack: string | null | undefined, phrase: string): boolean {
  const needle = words(phrase);
  if (!needle || !haystack) return false;
  return ` ${words(haystack)} `.includes(` ${needle} `);
}

export const isBlank = (s: string | null | undefined): boolean => !s || s.trim() === '';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Length in characters as people count them (an emoji or accented letter is one, however it is encoded). */
export const charLength = (s: string): number => [...graphemes.segment(s.trim())].length;

export const wordCount = (s: string): number => (words(s) ? words(s).split(' ').length : 0);

/** At most `max` characters of `s`, for quoting values in messages. */
export const clip = (s: string, max = 60): string => (charLength(s) <= max ? s : `${[...s].slice(0, max - 1).join('')}…`);
