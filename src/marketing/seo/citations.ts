/**
 * Source markers in article text. The one accepted form is a footnote:
 *
 *   reference  `[^source-id]`                 anywhere in the text, e.g. "cut churn by 30%[^grid:7f3c…]"
 *   definition `[^source-id]: what it names`  at the start of its own block (paragraph, list item, line)
 *
 * A source id is 1–128 characters of letters, digits and `: . _ -`, starting with a letter or digit, so ids like
 * `grid:<uuid>`, `testimonial:<uuid>` or `kb:<artifact id>` work. A reference is resolved when the text defines the
 * same id. Proof-pack citations and case-study drafts write markers with `citationMarker()` and their definitions with
 * `citationDefinition()`.
 */

export const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9:._-]{0,127}$/;

const MARKER = /\[\^([A-Za-z0-9][A-Za-z0-9:._-]{0,127})\]/g;
const DEFINITION = /^\[\^([A-Za-z0-9][A-Za-z0-9:._-]{0,127})\]:/;

/**
 * Markers that stand in for a source nobody filled in: `[citation needed]`, `[source]`, `[ref?]`, `[needs source]`,
 * `[TODO …]`, `[TBD]`, `[TK]`, `[FIXME]`, double-bracket markers such as `[[cite:…]]`, template slots such as
 * `{{source}}`, and an empty footnote `[^]`.
 */
const PLACEHOLDERS = [
  /\[\s*(?:citation|cite|source|ref|reference)s?(?:\s+needed)?\s*\??\s*\]/gi,
  /\[\s*needs?\s+(?:a\s+)?(?:source|citation|reference)s?\s*\]/gi,
  /\[\s*(?:todo|tbd|tk|fixme)\b[^\]\n]{0,200}\]/gi,
  /\[\[[^\]\n]{0,200}\]\]/g,
  /\{\{[^}\n]{0,200}\}\}/g,
  /\[\^\s*\]/g,
];

export function citationMarker(sourceId: string): string {
  if (!SOURCE_ID.test(sourceId)) throw new Error(`invalid source id for a citation marker: ${sourceId}`);
  return `[^${sourceId}]`;
}

export function citationDefinition(sourceId: string, text: string): string {
  return `${citationMarker(sourceId)}: ${text}`;
}

export interface CitationScan {
  /** Ids referenced and not defined, in order of first use. */
  unresolved: string[];
  /** Placeholder markers found, each once, in order. */
  placeholders: string[];
}

/** Reads `text` (one block per line, as the body outline gives it). */
export function scanCitations(text: string): CitationScan {
  const defined = new Set<string>();
  const referenced: string[] = [];
  for (const line of text.split('\n')) {
    const def = DEFINITION.exec(line);
    if (def) defined.add(def[1]);
    const rest = def ? line.slice(def[0].length) : line;
    for (const m of rest.matchAll(MARKER)) referenced.push(m[1]);
  }
  const placeholders = new Set<string>();
  const found: Array<{ at: number; marker: string }> = [];
  for (const pattern of PLACEHOLDERS) {
    for (const m of text.matchAll(pattern)) found.push({ at: m.index ?? 0, marker: m[0] });
  }
  for (const f of found.sort((a, b) => a.at - b.at)) placeholders.add(f.marker);
  return { unresolved: [...new Set(referenced.filter((id) => !defined.has(id)))], placeholders: [...placeholders] };
}
