import { z } from 'zod';

// The one pagination kit: the page/limit query rules (strict, or the lenient variant the spec gives artifact lists),
// the offset of a page, the `{ data, total, page, limit }` envelope every paged list answers, and the
// `{ data, limit, next_cursor, has_more }` envelope of the lists read by cursor.

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

/** The OpenAPI name of a list of `item`: `name` when given, else `<item's id>List`; none when the item has no id. */
function listNameOf(item: z.ZodType, name: string | undefined): string | undefined {
  if (name) return name;
  const itemId = z.globalRegistry.get(item)?.id;
  return itemId ? `${itemId}List` : undefined;
}

/** Gives `schema` the id `name` (when there is one), so the document shows it as a named component. */
const named = <S extends z.ZodType>(schema: S, name: string | undefined): S => (name ? schema.meta({ id: name }) : schema);

/** The response schema of `listEnvelope`, named `<Item>List` (or `name`). */
export function listEnvelopeSchema<T extends z.ZodType, K extends string = 'data'>(item: T, key: K = 'data' as K, name?: string) {
  const envelope = z.object({
    [key]: z.array(item),
    total: z.number().int().describe('Items in all pages.'),
    page: z.number().int(),
    limit: z.number().int(),
  } as { [k in K]: z.ZodArray<T> } & { total: z.ZodNumber; page: z.ZodNumber; limit: z.ZodNumber });
  return named(envelope, listNameOf(item, name));
}

/** A page of rows read by cursor: `next_cursor` (null on the last page) asks for the next one. */
export interface CursorPage<T> {
  data: T[];
  limit: number;
  next_cursor: string | null;
  has_more: boolean;
}

/** The response schema of a cursor-paged list (`CursorPage`), named `<Item>List` (or `name`). */
export function cursorPageSchema<T extends z.ZodType>(item: T, name?: string) {
  const envelope = z.object({
    data: z.array(item),
    limit: z.number(),
    next_cursor: z.string().nullable().describe('Send as `cursor` for the next page, with the same filters; null on the last page.'),
    has_more: z.boolean(),
  });
  return named(envelope, listNameOf(item, name));
}
