import { z } from 'zod';
import { optionalText, requiredText } from '../../http/fields';
import { refId } from '../../http/ids';

export const MAX_RESULTS = 50;
export const MAX_TESTIMONIALS = 50;
/** Fits a proof-pack entry (doc1: 600 characters) unchanged, so a consented quote never needs cutting. */
export const MAX_QUOTE = 600;
const MAX_MAGNITUDE = 1e15;

/** Decimal places of a number as JSON writes it (`1e-7` has 7). */
function decimalsOf(value: number): number {
  const [mantissa, exponent] = String(value).split('e');
  const places = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, places - Number(exponent ?? 0));
}

/** Stored as numeric(20,4): more than 4 decimal places would be rounded silently, so they are refused instead. */
const measure = () =>
  z
    .number({ error: 'must be a number' })
    .refine((v) => Math.abs(v) < MAX_MAGNITUDE, { error: 'must be between -1e15 and 1e15' })
    .refine((v) => decimalsOf(v) <= 4, { error: 'must have at most 4 decimal places' });

const resultFields = {
  metric: requiredText(255).describe('What was measured, e.g. "Hours spent on invoicing per week".'),
  before: measure().describe('The value before; a number with at most 4 decimal places.'),
  after: measure().describe('The value after; a number with at most 4 decimal places.'),
  unit: optionalText(50)
    .optional()
    .transform((v) => v ?? null)
    .describe('e.g. "%", "hours", "USD"; up to 50 characters, null when absent.'),
};

const testimonialFields = {
  quote: requiredText(MAX_QUOTE).describe(`The customer's words, 1..${MAX_QUOTE} characters; case studies copy it unchanged.`),
  attribution: optionalText(255)
    .optional()
    .transform((v) => v ?? null)
    .describe('Who said it, e.g. "Dana Ruiz, owner of Ruiz Plumbing"; up to 255 characters.'),
  consent: z
    .boolean()
    .default(false)
    .describe(
      'True when the customer agreed to be quoted verbatim with attribution. Defaults to false: without consent the quote is internal voice of customer, paraphrased without a name.',
    ),
};

const rowId = refId().optional().describe("The id of one of this grid's rows to keep it (and its id); absent for a new row.");

/** Flags the second and later rows that repeat an `id`. */
function uniqueIds(rows: Array<{ id?: string }>, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    if (row.id === undefined) return;
    if (seen.has(row.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: 'repeats the id of an earlier row' });
    seen.add(row.id);
  });
}

const resultList = <T extends z.ZodType>(row: T) => z.array(row).max(MAX_RESULTS, { error: `at most ${MAX_RESULTS} results` });
const testimonialList = <T extends z.ZodType>(row: T) =>
  z.array(row).max(MAX_TESTIMONIALS, { error: `at most ${MAX_TESTIMONIALS} testimonials` });

export const createGridBody = z.strictObject({
  name: requiredText(255).describe('1..255 characters.'),
  description: optionalText(5000).optional().describe('Up to 5000 characters.'),
  results: resultList(z.strictObject(resultFields))
    .optional()
    .describe(`Measurable results in order, at most ${MAX_RESULTS}; none when absent.`),
  testimonials: testimonialList(z.strictObject(testimonialFields))
    .optional()
    .describe(`Testimonials in order, at most ${MAX_TESTIMONIALS}; none when absent.`),
});

export const patchGridBody = z.strictObject({
  name: requiredText(255).optional(),
  description: optionalText(5000).optional().describe('null or "" clears it.'),
  results: resultList(z.strictObject({ id: rowId, ...resultFields }))
    .superRefine(uniqueIds)
    .optional()
    .describe(
      "Replaces the list in the order sent: rows with the `id` of one of this grid's results keep it, rows without `id` are new, results not sent are removed.",
    ),
  testimonials: testimonialList(z.strictObject({ id: rowId, ...testimonialFields }))
    .superRefine(uniqueIds)
    .optional()
    .describe(
      "Replaces the list in the order sent: rows with the `id` of one of this grid's testimonials keep it, rows without `id` are new, testimonials not sent are removed.",
    ),
});

const gridResultSchema = z
  .object({ id: z.string(), metric: z.string(), before: z.number(), after: z.number(), unit: z.string().nullable() })
  .meta({ id: 'GridResult' });

const gridTestimonialSchema = z
  .object({ id: z.string(), quote: z.string(), attribution: z.string().nullable(), consent: z.boolean() })
  .meta({ id: 'GridTestimonial' });

export const gridSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    results: z.array(gridResultSchema).describe('Measurable results in order.'),
    testimonials: z.array(gridTestimonialSchema).describe('Testimonials in order; `consent` false means paraphrase without a name.'),
    created_at: z.string().describe('ISO 8601'),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'Grid' });
