import { z } from 'zod';
import { pageQuery } from '../../http/pagination';

/** Query of every grounding and category list: `search` on the name, `page` (default 1), `limit` (default 25, max 100). */
export const listQuery = z.strictObject({
  search: z
    .string()
    .trim()
    .max(200, { error: 'must be at most 200 characters' })
    .transform((v) => v || undefined)
    .optional()
    .describe('Case-insensitive substring of the name (at most 200 characters); an empty value is ignored.'),
  ...pageQuery,
});

export type ListQuery = z.output<typeof listQuery>;

export const stamp = (value: Date): string => value.toISOString();
