/**
 * Text as quotes are compared: curly and prime quotation marks become straight ones, the dash family becomes a
 * hyphen-minus, whitespace runs (non-breaking spaces and line breaks too) become one space; nothing else changes.
 */
export function normalizeForQuote(text: string): string {
  return text
    .replace(/[\u2018\u2019\u201A\u201B\u2032\u2035]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033\u2036]/g, '"')
    .replace(/[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Verbatim check: the quote occurs in the passage after normalising whitespace, quote marks and dashes only (case-sensitive otherwise). An empty quote is never found. */
export function quoteInPassage(quote: string, passage: string): boolean {
  const wanted = normalizeForQuote(quote);
  return wanted.length > 0 && normalizeForQuote(passage).includes(wanted);
}
