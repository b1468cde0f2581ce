/**
 * The documented name-stripping fallback for internal voice of customer (used without a model key, and whenever the
 * model's paraphrase is unusable or still names someone):
 * - the source's people (the CRM contact's name, an attribution): the full name, then each part of two or more
 *   letters, case-insensitively on word boundaries → "the customer";
 * - a capitalised name (one or two words) after a greeting or sign-off ("Hi", "Hello", "Dear", "Thanks", "Thank you",
 *   "Regards", "Best", "Cheers", "I'm", "I am", "my name is", "this is", a dash) → "the customer";
 * - every email address, URL, phone number and @handle → "[removed]".
 * Company names stay: they are the account's customers, not people.
 */

export const NAME_STAND_IN = 'the customer';
export const DETAIL_STAND_IN = '[removed]';

const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{N}_])';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}_])';

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
// A link's trailing punctuation belongs to the sentence.
const URL = /\b(?:https?:\/\/|www\.)[^\s<>"')\]]*[^\s<>"')\].,;:!?]/gi;
const HANDLE = /(?<![\p{L}\p{N}_.])@[A-Za-z0-9_]{2,30}\b/gu;
// 7+ digits with the usual separators; years and plain counts are shorter and stay.
const PHONE = /(?<![\p{N}])\+?\(?\d[\d\s().-]{5,}\d(?![\p{N}])/gu;
const NAME_WORD = "\\p{Lu}[\\p{Ll}'’-]+";
const LEAD_WORDS = [
  'hi',
  'hello',
  'hey',
  'dear',
  'thanks',
  'thank you',
  'regards',
  'best',
  'cheers',
  "i'm",
  'i’m',
  'i am',
  'my name is',
  'this is',
];
// The name must be capitalised, so only the lead-in's first letter may be either case (no `(?-i:)` in Node 20).
const eitherCase = (word: string) => `[${word[0].toUpperCase()}${word[0]}]${word.slice(1)}`;
const LEAD_IN = `((?<![\\p{L}])(?:${LEAD_WORDS.map(eitherCase).join('|')}),?\\s+|[—–]\\s*)`;
const GREETED = new RegExp(`${LEAD_IN}${NAME_WORD}(?:\\s+${NAME_WORD})?${NOT_WORD_AFTER}`, 'gu');

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Full names first, then their parts, longest first, so "Jane Doe" is one stand-in rather than two. */
function nameVariants(names: string[]): string[] {
  const variants = new Set<string>();
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed.length >= 2) variants.add(trimmed);
    for (const part of trimmed.split(/[\s,]+/)) if ([...part].length >= 2 && /\p{L}/u.test(part)) variants.add(part);
  }
  return [...variants].sort((a, b) => b.length - a.length);
}

const namePattern = (variant: string) => new RegExp(`${NOT_WORD_BEFORE}${escape(variant)}${NOT_WORD_AFTER}`, 'giu');

/** True when `text` still holds one of the people's names or name parts (case-insensitive, word boundaries). */
export function namesAPerson(text: string, names: string[]): boolean {
  return nameVariants(names).some((variant) => namePattern(variant).test(text));
}

export function stripNames(text: string, names: string[]): string {
  let out = text
    .replace(EMAIL, DETAIL_STAND_IN)
    .replace(URL, DETAIL_STAND_IN)
    .replace(HANDLE, DETAIL_STAND_IN)
    .replace(PHONE, DETAIL_STAND_IN);
  for (const variant of nameVariants(names)) out = out.replace(namePattern(variant), NAME_STAND_IN);
  out = out.replace(GREETED, (_, lead: string) => `${lead}${NAME_STAND_IN}`);
  return out.replace(new RegExp(`${NAME_STAND_IN}(?:\\s+${NAME_STAND_IN})+`, 'gi'), NAME_STAND_IN);
}
