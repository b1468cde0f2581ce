export const MAX_SLUG = 100;

/** Lowercase ASCII letters and digits in words joined by single hyphens: `case-studies`, `2026-plans`. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Latin letters that Unicode decomposition leaves whole, spelled as they are usually transliterated. */
const LATIN_LETTERS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', þ: 'th', ð: 'd', ı: 'i' };

/**
 * The slug a name gives: accents dropped (`Café` → `cafe`, `Straße` → `strasse`), every run of anything else than
 * a-z and 0-9 one hyphen, at most `max` (100) characters cut at a hyphen where one is near. Empty when nothing is
 * left (`日本語`, `!!!`): the caller then needs an explicit slug.
 */
export function slugify(name: string, max = MAX_SLUG): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđłþðı]/g, (c) => LATIN_LETTERS[c])
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (words.length <= max) return words;
  const cut = words.slice(0, max);
  const lastHyphen = cut.lastIndexOf('-');
  return (lastHyphen >= max / 2 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, '');
}
