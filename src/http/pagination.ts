import { z } from 'zod';

// The one pagination kit: the page/limit query rules (strict, or the lenient variant the spec gives artifact lists),
// the offset of a page, and the `{ data, total, page, limit }` envelope every paged list answers.

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
/** Deep offsets get slow; past this, narrow the filters instead. */
export const MAX_PAGE = 10_000;

/** A list's own limit rule; both default to the common 25 and 100. */
export interface LimitRule {
  defaultLimit?: number;
  maxLimit?: number;
}

/** A query value that is a whole number from `min` to `max` (digits only); anything else is 400 naming `what`. */
export const wholeNumberQuery = (what: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${what} must be a whole number` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `${what} must be at least ${min}` })
        .max(max, { error: `${what} must be at most ${max}` }),
    );

const positiveInt = (max: number, what: string) => wholeNumberQuery(what, 1, max);

/** `page` (default 1, 1..10000) and `limit` (default and maximum per list); anything else is 400. */
export function strictPageQuery({ defaultLimit = DEFAULT_LIMIT, maxLimit = MAX_LIMIT }: LimitRule = {}) {
  return {
    page: positiveInt(MAX_PAGE, 'page').default(1).describe(`Page number, from 1 (default 1, at most ${MAX_PAGE}).`),
    limit: positiveInt(maxLimit, 'limit')
      .default(defaultLimit)
      .describe(`Items per page (default ${defaultLimit}, at most ${maxLimit}); a value out of range is 400.`),
  };
}

/** `page` (default 1, 1..10000) and `limit` (default 25, 1..100) of every strict paged list; anything else is 400. */
export const pageQuery = strictPageQuery();

/** An empty query value (`?limit=`) is read as absent. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/**
 * A count read the lenient way the spec gives for artifact lists: absent, empty, zero or negative is the default,
 * above `max` is `max`; anything that is not a whole number is 400.
 */
export const lenientCount = (what: string, fallback: number, max: number) =>
  blankAsAbsent(z.string().regex(/^[+-]?\d+$/, { error: `${what} must be a whole number` })).transform((v) => {
    const n = v === undefined ? fallback : Number(v);
    return n < 1 ? fallback : Math.min(n, max);
  });

/** `page` and `limit` read leniently (see `lenientCount`); only a page above 10000 or a non-number is 400. */
export function lenientPageQuery({ defaultLimit = DEFAULT_LIMIT, maxLimit = MAX_LIMIT }: LimitRule = {}) {
  return {
    page: lenientCount('page', 1, Number.MAX_SAFE_INTEGER)
      .pipe(z.number().max(MAX_PAGE, { error: `page must be at most ${MAX_PAGE}` }))
      .describe(
        `Page number from 1 (default 1; 0 or a negative number is read as 1; above ${MAX_PAGE} is 400; not a whole number is 400).`,
      ),
    limit: lenientCount('limit', defaultLimit, maxLimit).describe(
      `Items per page (default ${defaultLimit}; 0 or a negative number is read as ${defaultLimit}; above ${maxLimit} is read as ${maxLimit}; not a whole number is 400).`,
    ),
  };
}

export interface Page {
  page: number;
  limit: number;
}

export const offsetOf = ({ page, limit }: Page) => (page - 1) * limit;

/** A page of rows under `key` (`data` unless a list's spec names another), with the total and the page asked for. */
export type ListEnvelope<T, K extends string = 'data'> = { [key in K]: T[] } & { total: number; page: number; limit: number };

export function listEnvelope<T>(rows: T[], total: number, page: Page): ListEnvelope<T>;
export function listEnvelope<T, K extends string>(rows: T[], total: number, page: Page, key: K): ListEnvelope<T, K>;
export function listEnvelope<T>(rows: T[], total: number, page: Page, key = 'data'): Record<string, unknown> {
  return { [key]: rows, total, page: page.page, limit: page.limit };
}

/** The response schema of `listEnvelope`. */
export function listEnvelopeSchema<T extends z.ZodType, K extends string = 'data'>(item: T, key: K = 'data' as K) {
  return z.object({
    [key]: z.array(item),
    total: z.number().int().describe('Items in all pages.'),
    page: z.number().int(),
    limit: z.number().int(),
  } as { [k in K]: z.ZodArray<T> } & { total: z.ZodNumber; page: z.ZodNumber; limit: z.ZodNumber });
}
