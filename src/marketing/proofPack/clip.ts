/** The spec's limit on an entry's text. */
export const MAX_ENTRY_CHARS = 600;

/** `text` cut at a word boundary with "…" so it fits `max` characters (code points); unchanged when it fits. */
export function clipAtWord(text: string, max = MAX_ENTRY_CHARS): string {
  const chars = [...text.trim()];
  if (chars.length <= max) return chars.join('');
  const head = chars.slice(0, max - 1).join('');
  const cut = head.replace(/\s+\S*$/u, '');
  return `${(cut.length >= max / 2 ? cut : head).trimEnd()}…`;
}

export const fits = (text: string, max = MAX_ENTRY_CHARS): boolean => [...text].length <= max;
