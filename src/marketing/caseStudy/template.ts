import { assembleDraft, quotableTestimonial, resultChange, shownResults } from './markup';
import type { CaseStudyDraft, CaseStudySources } from '../../../workflows/caseStudy.contract';
import type { CaseStudyProse } from './prose';

/**
 * The documented template writer, used without a model key or when the model's answer is unusable. Its prose holds
 * no number at all; the only numbers of the draft are the grid's values in the results list (and in the excerpt).
 * The contact is named only when a consented testimonial is quoted: a customer who agreed to be quoted agreed to be
 * named; otherwise the draft names the company, or says "our customer".
 */

/** Who the story is about, as the draft may name them; null when no name may be used. */
export function customerName(sources: CaseStudySources): string | null {
  const company = sources.contact.company?.trim() || null;
  const contact = quotableTestimonial(sources) ? sources.contact.name?.trim() || null : null;
  return company ?? contact;
}

function metricsPhrase(sources: CaseStudySources): string | null {
  const metrics = [...new Set(shownResults(sources).map((r) => r.metric.trim().toLowerCase()))].slice(0, 2);
  return metrics.length > 0 ? metrics.join(' and ') : null;
}

function templateProse(sources: CaseStudySources): CaseStudyProse {
  const name = customerName(sources);
  const who = name ?? 'our customer';
  const Who = name ?? 'Our customer';
  const metrics = metricsPhrase(sources);
  const first = shownResults(sources)[0];
  const contact = quotableTestimonial(sources) && sources.contact.company ? sources.contact.name?.trim() : undefined;
  const challenge = [
    `${Who} needed a better way to handle ${metrics ?? 'their day-to-day work'}.`,
    sources.avatar ? `Their situation is typical of the customers we describe as “${sources.avatar.name}”.` : '',
  ];
  const solution = [`${Who} chose to work with us.`, contact ? `${contact} was our contact on their side.` : ''];
  const outcome = first
    ? `Here is what changed for ${who}, as measured before and after and recorded in the before/after grid “${sources.grid!.name}”.`
    : `The measured results for ${who} are still to be recorded.`;
  return {
    title: metrics ? `How ${who} improved ${metrics}` : `${Who}: a customer story`,
    excerpt: first ? `${Who} took ${first.metric.trim().toLowerCase()} ${resultChange(first)}.` : `How ${who} works with us.`,
    challenge: challenge.filter(Boolean).join(' '),
    solution: solution.filter(Boolean).join(' '),
    outcome,
  };
}

/** A complete draft from the sources alone, no model involved. */
export function templateDraft(sources: CaseStudySources, warnings: string[] = []): CaseStudyDraft {
  return assembleDraft(templateProse(sources), sources, 'template', warnings);
}
