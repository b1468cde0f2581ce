/** OpenAPI prose of how a case-study draft is written, for the route that drafts one (kept out of its declaration). */

export const CASE_STUDY_WRITER = [
  '**How the draft is written.** With a chat model configured, one JSON call writes the prose (title, excerpt, challenge,',
  'solution, outcome) from names only: the customer, the avatar, the grid and which way each metric moved; the model sees',
  'no number and no quote and must use no digit (an answer with a digit outside the names given, a source marker, or not',
  'in the asked shape is unusable). Without a model key, or on a failed or unusable answer (a warning says so), a fixed',
  'template writes it, so a draft is always produced (`writer`: `model` or `template`).',
  '\n\n**Structure (HTML body).** H2 "The challenge", H2 "The solution", H2 "The results" (the outcome, then one list item',
  'per grid result: `<metric>: from <before> <unit> to <after> <unit>` followed by the marker `[^grid:<grid id>]`), H2 "In',
  'their words" (only for a testimonial with consent: `<blockquote class="case-study-quote"><p>QUOTE</p><footer>—',
  'attribution[^testimonial:<id>]</footer></blockquote>`), and H2 "Sources" with one definition paragraph per marker',
  '(`[^grid:<id>]: Before/after grid “<name>”: …`, `[^testimonial:<id>]: Testimonial by …`), which the pre-publish check',
  'resolves.',
  "\n\n**Numbers.** The only numbers are the grid's before and after values, shown as stored without trailing zeros of the",
  'fraction ("12.5000" → "12.5"; no rounding, no separators), in the results list and the excerpt; the prose states no',
  'year, amount or count. Names (company, avatar, grid, metric, unit, attribution) are repeated as they are.',
  '\n\n**Quote.** Copied unchanged from the testimonial row, escaped only where HTML requires it (`&`, `<`, `>`, and a',
  "carriage return as `&#13;`), so the text a browser reads is the row's byte for byte. A testimonial without consent is",
  'not quoted and not cited (a warning). The contact is named only in a draft that quotes a consented testimonial;',
  'otherwise the draft names the company, or says "our customer".',
].join(' ');
