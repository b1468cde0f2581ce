import type { Knex } from '../../../db/knex';
import { selectTestimonials } from '../store';
import type { PackScope, RawProof } from '../types';

/** Grid testimonials: consented ones quoted with attribution, the others paraphrased as internal voice of customer. */
export async function readTestimonials(trx: Knex.Transaction, accountId: string, scope: PackScope): Promise<RawProof[]> {
  const rows = await selectTestimonials(trx, accountId, scope);
  return rows.map((row) => ({
    kind: 'testimonial',
    consent: row.consent,
    text: row.quote,
    attribution: row.consent ? row.attribution : null,
    sourceType: 'before_after_testimonial',
    sourceId: row.id,
    citationId: `testimonial:${row.id}`,
    describes: row.consent
      ? `Testimonial${row.attribution ? ` by ${row.attribution}` : ''}, before/after grid “${row.grid_name}”`
      : `Customer feedback without consent to quote, before/after grid “${row.grid_name}” (paraphrased, not named)`,
    names: row.attribution ? [row.attribution] : [],
  }));
}
