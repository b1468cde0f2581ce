import type { Knex } from '../../db/knex';
import { contentWithNames, type ContentRowWithNames } from './store';

export interface ContentFilter {
  status?: string;
  content_type?: string;
  category_id?: string;
  tags?: string[];
  search?: string;
  avatar_id?: string;
  journey_id?: string;
  before_after_grid_id?: string;
  journey_stage?: string;
  published_since?: Date;
}

export type ContentSort = 'updated' | 'published';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function applyFilter(q: Knex.QueryBuilder, f: ContentFilter): Knex.QueryBuilder {
  if (f.status !== undefined) q.where('c.status', f.status);
  if (f.content_type !== undefined) q.where('c.content_type', f.content_type);
  if (f.category_id !== undefined) q.where('c.category_id', f.category_id);
  if (f.tags?.length) q.whereRaw('c.tags @> ?::text[]', [f.tags]);
  if (f.search !== undefined) {
    const needle = `%${escapeLike(f.search.toLowerCase())}%`;
    q.where((w) => w.whereRaw('lower(c.title) like ?', [needle])
      .orWhereRaw("lower(coalesce(c.target_keyword, c.settings->>'target_keyword')) like ?", [needle]));
  }
  if (f.avatar_id !== undefined) q.where('c.avatar_id', f.avatar_id);
  if (f.journey_id !== undefined) q.where('c.journey_id', f.journey_id);
  if (f.before_after_grid_id !== undefined) q.where('c.before_after_grid_id', f.before_after_grid_id);
  if (f.journey_stage !== undefined) q.whereRaw('lower(c.journey_stage) = lower(?)', [f.journey_stage]);
  if (f.published_since !== undefined) q.where('c.published_at', '>=', f.published_since);
  return q;
}

/** One page of the account's items and the total of the filter. */
export async function contentPage(
  db: Knex, accountId: string, filter: ContentFilter, sort: ContentSort, page: { limit: number; offset: number },
): Promise<{ rows: ContentRowWithNames[]; total: number }> {
  const order = sort === 'published'
    ? 'c.published_at desc nulls last, c.id desc'
    : 'c.updated_at desc, c.id desc';
  const [rows, [{ count }]] = await Promise.all([
    applyFilter(contentWithNames(db, accountId), filter).orderByRaw(order).limit(page.limit).offset(page.offset),
    applyFilter(db('content_items as c').where('c.account_id', accountId), filter).count<{ count: number }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}
