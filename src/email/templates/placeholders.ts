/**
 * Template text split into literal parts and `{{name}}` placeholders. A name is letters, digits and `_`, in parts
 * joined by dots (`{{user.first_name}}`: a dotted name is one plain key of `variables`); spaces inside the braces
 * are allowed. `{{{name}}}` marks a value inserted without HTML escaping (it only matters in html).
 */
export type Part = string | { name: string; raw: boolean };

// Either brace run ends at the first brace, so `{{{x}}}` is read as a triple and `{{ x }` is plain text.
const PLACEHOLDER = /\{\{(\{?)([^{}]*)(\}?)\}\}/g;
const NAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

export interface Parsed {
  parts: Part[];
  /** Placeholders that name nothing well-formed, as written (`{{first name}}`). */
  invalid: string[];
}

export function parsePlaceholders(source: string): Parsed {
  const parts: Part[] = [];
  const invalid: string[] = [];
  let last = 0;
  for (const match of source.matchAll(PLACEHOLDER)) {
    const [whole, open, inner, close] = match;
    const name = inner.trim();
    if (open.length !== close.length || !NAME.test(name)) {
      invalid.push(whole);
      continue;
    }
    if (match.index > last) parts.push(source.slice(last, match.index));
    parts.push({ name, raw: open === '{' });
    last = match.index + whole.length;
  }
  if (last < source.length) parts.push(source.slice(last));
  return { parts: mergeText(parts), invalid };
}

/** Text that held an invalid placeholder stays literal; adjacent literals are joined. */
function mergeText(parts: Part[]): Part[] {
  const merged: Part[] = [];
  for (const part of parts) {
    const prev = merged[merged.length - 1];
    if (typeof part === 'string' && typeof prev === 'string') merged[merged.length - 1] = prev + part;
    else merged.push(part);
  }
  return merged;
}

/** Names used, in order of first appearance. */
export function variableNames(...parsed: Parsed[]): string[] {
  const names = new Set<string>();
  for (const { parts } of parsed) for (const part of parts) if (typeof part !== 'string') names.add(part.name);
  return [...names];
}
