import { citationDefinition, citationMarker, scanCitations } from '../seo/citations';
import type { CaseStudyDraft, CaseStudyGridResult, CaseStudySources } from '../../../workflows/caseStudy.contract';
import type { CaseStudyProse } from './prose';

/**
 * The body of every draft, whoever wrote the prose: the results list, the quote block and the source definitions are
 * built here from the rows, so numbers and quote are exact by construction.
 *
 * The quote sits in `<blockquote class="case-study-quote"><p>QUOTE</p>…`, escaped only where HTML requires it
 * (`&`, `<`, `>`, and a carriage return, which a parser would otherwise turn into a line feed), so an HTML parser
 * reads back exactly the testimonial row's text, and quoteInBody recovers it byte for byte from the stored body.
 */

const QUOTE_OPEN = '<blockquote class="case-study-quote"><p>';
const QUOTE_CLOSE = '</p>';
/**
 * A stored numeric(20,4) as the draft shows it: trailing zeros of the fraction dropped ("12.5000" → "12.5",
 * "40.0000" → "40"), nothing else changed (no rounding, no thousands separators), so the shown value is the stored one.
 */
export function shownNumber(stored: string): string {
  const value = stored.trim();
  if (!/^-?\d+\.\d+$/.test(value)) return value;
  return value.replace(/0+$/, '').replace(/\.$/, '');
}

/** Units written against the number ("40%"); any other unit follows after a space ("40 hours"). */
const ATTACHED_UNITS = new Set(['%']);

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeQuote(quote: string): string {
  return escapeText(quote).replace(/\r/g, '&#13;');
}

function unescapeQuote(html: string): string {
  return html.replace(/&#13;/g, '\r').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The quote exactly as the testimonial row holds it, read back from a draft's body; null when it quotes nobody. */
export function quoteInBody(body: string): string | null {
  const start = body.indexOf(QUOTE_OPEN);
  if (start < 0) return null;
  const end = body.indexOf(QUOTE_CLOSE, start + QUOTE_OPEN.length);
  return end < 0 ? null : unescapeQuote(body.slice(start + QUOTE_OPEN.length, end));
}

/** The body with the quote's text taken out (what the number check reads: the quote is verbatim, not our numbers). */
export function bodyWithoutQuote(body: string): string {
  const start = body.indexOf(QUOTE_OPEN);
  const end = start < 0 ? -1 : body.indexOf(QUOTE_CLOSE, start + QUOTE_OPEN.length);
  return end < 0 ? body : body.slice(0, start + QUOTE_OPEN.length) + body.slice(end);
}

/** The grid's results, in the grid's order (the draft shows them all). */
export function shownResults(sources: CaseStudySources): CaseStudyGridResult[] {
  return sources.grid?.results ?? [];
}

/** The testimonial when it may be quoted verbatim: consent given and a quote to copy. */
export function quotableTestimonial(sources: CaseStudySources): CaseStudySources['testimonial'] {
  const t = sources.testimonial;
  return t && t.consent && t.quote.trim() !== '' ? t : null;
}

function withUnit(value: string, unit: string | null): string {
  const shown = shownNumber(value);
  if (!unit?.trim()) return shown;
  return ATTACHED_UNITS.has(unit.trim()) ? `${shown}${unit.trim()}` : `${shown} ${unit.trim()}`;
}

/** "from 48 hours to 2 hours": the result's stored values as shown. */
export function resultChange(result: CaseStudyGridResult): string {
  return `from ${withUnit(result.before, result.unit)} to ${withUnit(result.after, result.unit)}`;
}

export function resultLine(result: CaseStudyGridResult): string {
  return `${result.metric}: ${resultChange(result)}`;
}

/** Plain text as paragraphs: a blank line starts a new one. */
function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeText(p)}</p>`);
}

function quoteBlock(t: NonNullable<CaseStudySources['testimonial']>): string {
  const who = t.attribution?.trim() ? `— ${escapeText(t.attribution.trim())}` : 'Customer testimonial';
  const marker = citationMarker(`testimonial:${t.id}`);
  return `${QUOTE_OPEN}${escapeQuote(t.quote)}${QUOTE_CLOSE}<footer>${who}${marker}</footer></blockquote>`;
}

function warningsOf(sources: CaseStudySources): string[] {
  const warnings: string[] = [];
  if (!sources.grid) warnings.push('no before/after grid was given: the draft states no measured results');
  else if (sources.grid.results.length === 0)
    warnings.push(`the before/after grid "${sources.grid.name}" has no results: the draft states none`);
  const t = sources.testimonial;
  if (!t) warnings.push('no testimonial was given: the draft quotes nobody');
  else if (!t.consent) warnings.push(`testimonial ${t.id} has no consent to be quoted verbatim: it is not quoted`);
  else if (!t.quote.trim()) warnings.push(`testimonial ${t.id} has an empty quote: it is not quoted`);
  else {
    const scan = scanCitations(t.quote);
    if (scan.unresolved.length + scan.placeholders.length > 0)
      warnings.push(`the quote of testimonial ${t.id} holds text the pre-publish check reads as a source marker; it is quoted unchanged`);
  }
  return warnings;
}

/** The draft: the prose (escaped) in the fixed structure, with the results, the quote and the definitions built from the rows. */
export function assembleDraft(
  prose: CaseStudyProse,
  sources: CaseStudySources,
  writer: CaseStudyDraft['writer'],
  warnings: string[],
): CaseStudyDraft {
  const grid = sources.grid;
  const results = shownResults(sources);
  const testimonial = quotableTestimonial(sources);
  const parts = ['<h2>The challenge</h2>', ...paragraphs(prose.challenge), '<h2>The solution</h2>', ...paragraphs(prose.solution)];
  parts.push('<h2>The results</h2>', ...paragraphs(prose.outcome));
  if (grid && results.length > 0) {
    const marker = citationMarker(`grid:${grid.id}`);
    parts.push(`<ul>${results.map((r) => `<li>${escapeText(resultLine(r))}${marker}</li>`).join('')}</ul>`);
  }
  if (testimonial) parts.push('<h2>In their words</h2>', quoteBlock(testimonial));
  const definitions: string[] = [];
  if (grid && results.length > 0)
    definitions.push(citationDefinition(`grid:${grid.id}`, `Before/after grid “${grid.name}”: measured results, before and after.`));
  if (testimonial) {
    const by = testimonial.attribution?.trim()
      ? `Testimonial by ${testimonial.attribution.trim()}`
      : 'Testimonial (no attribution recorded)';
    definitions.push(citationDefinition(`testimonial:${testimonial.id}`, `${by}, quoted unchanged with consent.`));
  }
  if (definitions.length > 0) parts.push('<h2>Sources</h2>', ...definitions.map((d) => `<p>${escapeText(d)}</p>`));
  return {
    title: prose.title,
    excerpt: prose.excerpt,
    body: parts.join('\n'),
    writer,
    warnings: [...warnings, ...warningsOf(sources)],
    sources_used: {
      grid_id: grid && results.length > 0 ? grid.id : null,
      result_ids: results.map((r) => r.id),
      testimonial_id: testimonial?.id ?? null,
    },
  };
}
