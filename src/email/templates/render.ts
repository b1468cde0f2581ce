import type { Part } from './placeholders';

export type VariableValue = string | number | boolean;
export type Variables = Record<string, VariableValue>;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

/** The value of `name`, or undefined when `variables` has no own key of that name (`constructor` is not a value). */
export function valueOf(variables: Variables, name: string): string | undefined {
  return Object.hasOwn(variables, name) ? String(variables[name]) : undefined;
}

/** Names that `parts` use and `variables` lacks, in order of first appearance. */
export function missingNames(parts: Part[][], variables: Variables): string[] {
  const missing = new Set<string>();
  for (const list of parts) {
    for (const part of list) if (typeof part !== 'string' && valueOf(variables, part.name) === undefined) missing.add(part.name);
  }
  return [...missing];
}

/** Fills the placeholders (every one must have a value: check `missingNames` first); `html` escapes all but `{{{raw}}}`. */
export function fill(parts: Part[], variables: Variables, mode: 'html' | 'plain'): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const value = valueOf(variables, part.name) ?? '';
      return mode === 'html' && !part.raw ? escapeHtml(value) : value;
    })
    .join('');
}
