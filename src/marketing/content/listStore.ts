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
    q.where((w) =>
      w
        .whereRaw('lower(c.title) like ?', [needle])
        .orWhereRaw("lower(coalesce(c.target_keyword, c.settings->>'target_keyword')) like ?", [needle]),
    );
  }
  if (f.avatar_id !== undefined) q.where('c.avatar_id', f.avatar_id);
  if (f.journey_id !== undefined) q.where('c.journey_id', f.journey_id);
  if (f.before_after_grid_id !== undefined) q.where('c.before_after_grid_id', f.before_after_grid_id);
  if (f.journey_stage !== undefined) q.whereRaw('lower(c.journey_stage) = lower(?)', [f.journey_stage]);
  if (f.published_since !== undefined) q.where('c.published_at', '>=', f.published_since);
  return q;
}

export interface ContentWindow {
  limit: number;
  offset: number;
}

const ORDER: Record<ContentSort, string> = {
  updated: 'updated_at desc, id desc',
  published: 'published_at desc nulls last, id desc',
};
const prefixed = (order: string) => order.replace(/(\w+_at|id) /g, 'c.$1 ');

const hasFilter = (f: ContentFilter) => Object.values(f).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));

/** One page of the account's items, with the names of their grounding objects, in the requested order. */
export function contentPageQuery(
  db: Knex,
  accountId: string,
  filter: ContentFilter,
  sort: ContentSort,
  page: ContentWindow,
): Knex.QueryBuilder {
  return applyFilter(contentWithNames(db, accountId), filter).orderByRaw(prefixed(ORDER[sort])).limit(page.limit).offset(page.offset);
}

export function contentCountQuery(db: Knex, accountId: string, filter: ContentFilter): Knex.QueryBuilder {
  return applyFilter(db('content_items as c').where('c.account_id', accountId), filter).count<{ count: number }[]>({ count: '*' });
}

/**
 * A filtered page and its total in one statement: the matches are found once through the filter's index, counted,
 * and the page is cut from them. With no row on the page it still answers one row carrying the total.
 */
export function contentPageWithTotalQuery(
  db: Knex,
  accountId: string,
  filter: ContentFilter,
  sort: ContentSort,
  page: ContentWindow,
): Knex.Raw {
  const matched = applyFilter(db('content_items as c').where('c.account_id', accountId), filter).select(
    'c.id',
    'c.updated_at',
    'c.published_at',
  );
  const rows = contentWithNames(db, accountId).whereRaw('c.id in (select id from page)').orderByRaw(prefixed(ORDER[sort]));
  return db.raw(
    `with matched as materialized (?),
          page as (select id from matched order by ${ORDER[sort]} limit ? offset ?)
     select t.total, p.* from (select count(*) as total from matched) t left join lateral (?) p on true`,
    [matched, page.limit, page.offset, rows],
  );
}

/** One page of the account's items and the total of the filter. */
export async function contentPage(
  db: Knex,
  accountId: string,
  filter: ContentFilter,
  sort: ContentSort,
  page: ContentWindow,
): Promise<{ rows: ContentRowWithNames[]; total: number }> {
  if (hasFilter(filter)) {
    const result = await contentPageWithTotalQuery(db, accountId, filter, sort, page);
    const rows = result.rows as Array<ContentRowWithNames & { total: number }>;
    return {
      rows: rows.filter((r) => r.id !== null).map(({ total: _total, ...row }) => row as ContentRowWithNames),
      total: rows.length ? Number(rows[0].total) : 0,
    };
  }
  // Unfiltered: the page walks the order's index and stops at `limit`; the count is an index-only scan.
  const [rows, [{ count }]] = await Promise.all([
    contentPageQuery(db, accountId, filter, sort, page) as Promise<ContentRowWithNames[]>,
    contentCountQuery(db, accountId, filter) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}
