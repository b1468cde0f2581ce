import { readBody } from '../seo/html';
import { bodyWithoutQuote, shownNumber } from './markup';
import type { CaseStudyDraft, CaseStudySources } from '../../../workflows/caseStudy.contract';

/** A number as a reader sees it: digits, with decimal points or thousands commas between digit groups. */
const NUMBER = /\d+(?:[.,]\d+)*/g;
/** Source markers name ids (uuids) whose digits are no numbers of the text. */
const MARKER = /\[\^[A-Za-z0-9][A-Za-z0-9:._-]{0,127}\]/g;

/** Every number token of `text`, in order, source markers left out. */
export function numbersIn(text: string): string[] {
  return [...text.replace(MARKER, ' ').matchAll(NUMBER)].map((m) => m[0]);
}

/** The names the draft may repeat as they are, digits and all: company, contact, avatar, grid, metrics, units, attribution. */
export function allowedNames(sources: CaseStudySources): string[] {
  const names = [sources.contact.company, sources.contact.name, sources.avatar?.name, sources.grid?.name];
  for (const r of sources.grid?.results ?? []) names.push(r.metric, r.unit);
  if (sources.testimonial?.consent) names.push(sources.testimonial.attribution);
  return names.filter((n): n is string => typeof n === 'string' && n.trim() !== '');
}

/** The numbers a draft may contain: the grid's before and after values as shown, and numbers inside the allowed names. */
export function allowedNumbers(sources: CaseStudySources): Set<string> {
  const allowed = new Set<string>();
  for (const r of sources.grid?.results ?? []) {
    for (const n of numbersIn(`${shownNumber(r.before)} ${shownNumber(r.after)}`)) allowed.add(n);
  }
  for (const name of allowedNames(sources)) for (const n of numbersIn(name)) allowed.add(n);
  return allowed;
}

/**
 * The numbers of a draft (title, excerpt and the body's visible text, as a browser reads it) that are not allowed.
 * The quote is left out: it is the testimonial copied unchanged, which quoteInBody proves byte for byte.
 */
export function unsourcedNumbers(draft: CaseStudyDraft, sources: CaseStudySources): string[] {
  const text = readBody(bodyWithoutQuote(draft.body)).text;
  const allowed = allowedNumbers(sources);
  return numbersIn(`${draft.title}\n${draft.excerpt}\n${text}`).filter((n) => !allowed.has(n));
}
