/** Offset/limit pagination the platform's way: `pagination { limit, offset, total }` beside the page of rows. */
import { z } from 'zod';
import { parseWith, type Parsed } from './http';

export const MAX_LIMIT = 100;

const pageQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(MAX_LIMIT),
});

export type PageQuery = z.infer<typeof pageQuery>;

export function readPageQuery(query: URLSearchParams): Parsed<PageQuery> {
  return parseWith(pageQuery, { offset: query.get('offset') ?? undefined, limit: query.get('limit') ?? undefined });
}

export function paginate<T>(rows: T[], q: PageQuery): { rows: T[]; pagination: { limit: number; offset: number; total: number } } {
  return { rows: rows.slice(q.offset, q.offset + q.limit), pagination: { limit: q.limit, offset: q.offset, total: rows.length } };
}
