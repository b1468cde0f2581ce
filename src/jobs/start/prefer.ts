/*
 * The `Prefer` request header (RFC 7240): a comma-separated list of `name[=value]` preferences, each with optional
 * `;`-parameters (which no preference read here uses). Names are case-insensitive, a value may be a quoted string,
 * and only the first instance of a preference counts (§2).
 */

/** Splits on `separator` outside quoted strings. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '\\' && i + 1 < text.length) {
      current += char + text[++i];
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

function unquote(word: string): string {
  return word.length >= 2 && word.startsWith('"') && word.endsWith('"') ? word.slice(1, -1).replace(/\\(.)/g, '$1') : word;
}

/** Each preference's value by lowercase name (undefined: sent without a value; an empty value is no value, §2). */
export function parsePrefer(header: string | undefined): Map<string, string | undefined> {
  const preferences = new Map<string, string | undefined>();
  for (const element of splitOutsideQuotes(header ?? '', ',')) {
    const [head] = splitOutsideQuotes(element, ';');
    const eq = head.indexOf('=');
    const name = (eq < 0 ? head : head.slice(0, eq)).trim().toLowerCase();
    if (!name || preferences.has(name)) continue;
    const value = eq < 0 ? '' : unquote(head.slice(eq + 1).trim());
    preferences.set(name, value === '' ? undefined : value);
  }
  return preferences;
}
