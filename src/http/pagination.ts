import { z } from 'zod';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
/** Deep offsets get slow; past this, narrow the filters instead. */
export const MAX_PAGE = 10_000;

const positiveInt = (max: number, what: string) =>
  z.string()
    .regex(/^\d+$/, { error: `${what} must be a whole number` })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: `${what} must be at least 1` }).max(max, { error: `${what} must be at most ${max}` }));

/** `page` (default 1, 1..10000) and `limit` (default 25, 1..100) of every paged list; anything else is 400. */
export const pageQuery = {
  page: positiveInt(MAX_PAGE, 'page').default(1).describe(`Page number, from 1 (default 1, at most ${MAX_PAGE}).`),
  limit: positiveInt(MAX_LIMIT, 'limit').default(DEFAULT_LIMIT)
    .describe(`Items per page (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}); a value out of range is 400.`),
};

export interface Page { page: number; limit: number }

export const offsetOf = ({ page, limit }: Page) => (page - 1) * limit;
