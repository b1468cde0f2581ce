import type { Knex } from '../../db/knex';
import type { LinkedItemRow } from './roiStore';

// The nightly daily rows (content_analytics_daily) and what the nightly job reads to write them. Every account-owned
// query filters on the account.

export interface DailyRowInsert {
  account_id: string;
  content_id: string;
  /** YYYY-MM-DD, a closed UTC day. */
  day: string;
  views: number;
  unique_views: number;
  external_analytics: unknown;
}

export interface DailyRow {
  date: string;
  views: number;
  unique_views: number;
  external_analytics: Record<string, unknown>;
  computed_at: Date;
}

export interface NewestDay {
  content_id: string;
  date: string;
  computed_at: Date;
  /** external_analytics.rank of that row (null when absent). */
  rank: unknown;
}

export interface AnalyticsProject {
  account_id: string;
  project_id: string;
}

export interface ProjectItemRow extends LinkedItemRow {
  target_keyword: string | null;
  settings: Record<string, unknown>;
  /** YYYY-MM-DD (UTC) the item was created: no day before it gets a row. */
  created_day: string;
}

const DAY = `to_char(day, 'YYYY-MM-DD')`;

/** Writes rows that are not stored yet; a row already stored for the item and day is kept as it is. Returns how many were written. */
export async function insertDailyRows(db: Knex, rows: DailyRowInsert[]): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db('content_analytics_daily')
    .insert(rows.map((r) => ({ ...r, external_analytics: JSON.stringify(r.external_analytics) })))
    .onConflict(['account_id', 'content_id', 'day'])
    .ignore()
    .returning('day');
  return written.length;
}

/** The newest stored row of each item that has one. */
export async function newestDays(db: Knex, accountId: string, contentIds: string[]): Promise<NewestDay[]> {
  if (contentIds.length === 0) return [];
  const result = await db.raw(
    `select distinct on (content_id) content_id, ${DAY} as date, computed_at, external_analytics->'rank' as rank
       from content_analytics_daily
      where account_id = :account and content_id = any(:ids::uuid[])
      order by content_id, day desc`,
    { account: accountId, ids: contentIds },
  );
  return result.rows as NewestDay[];
}

export interface DailyRowsQuery {
  from: string | null;
  to: string | null;
  limit: number;
  offset: number;
}

/** One item's stored rows between `from` and `to` (inclusive dates), newest first, with the count of all that match. */
export async function listDailyRows(
  db: Knex,
  accountId: string,
  contentId: string,
  q: DailyRowsQuery,
): Promise<{ rows: DailyRow[]; total: number }> {
  const scoped = () => {
    const b = db('content_analytics_daily').where({ account_id: accountId, content_id: contentId });
    if (q.from) b.where('day', '>=', q.from);
    if (q.to) b.where('day', '<=', q.to);
    return b;
  };
  const [rows, [{ total }]] = await Promise.all([
    scoped()
      .orderBy('day', 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .select(db.raw(`${DAY} as date`), 'views', 'unique_views', 'external_analytics', 'computed_at'),
    scoped().count<{ total: string | number }[]>({ total: '*' }),
  ]);
  return { rows: rows as DailyRow[], total: Number(total) };
}

/**
 * Projects, across all accounts, that have a collector site id and at least one linked content item: the nightly
 * job's units of work, in id order after `afterId`.
 */
export async function analyticsProjectsPage(db: Knex, afterId: string | null, limit: number): Promise<AnalyticsProject[]> {
  const result = await db.raw(
    `select p.account_id, p.id as project_id
       from projects p
      where p.analytics_site_id is not null
        and (:after::uuid is null or p.id > :after::uuid)
        and exists (select 1 from content_items c where c.account_id = p.account_id and c.cms_project_id = p.id)
      order by p.id
      limit :limit`,
    { after: afterId, limit },
  );
  return result.rows as AnalyticsProject[];
}

/** The content items linked to one project of the account, oldest first, at most `limit`. */
export async function projectItems(db: Knex, accountId: string, projectId: string, limit: number): Promise<ProjectItemRow[]> {
  return db('content_items')
    .where({ account_id: accountId, cms_project_id: projectId })
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(limit)
    .select(
      'id',
      'title',
      'status',
      'slug',
      'content_type',
      'canonical_url',
      'site_entry_url',
      'cms_link',
      'target_keyword',
      'settings',
      db.raw(`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as created_day`),
    );
}
