import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';
import { getContent } from '../content/service';
import { urlOf, type UrlSource } from '../content/url';
import { listDailyRows, type DailyRow } from './dailyStore';
import { scorecardOfItem, type Scorecard } from './scorecard';
import type { AnalyticsWindow } from './window';

export interface ContentSummary {
  id: string;
  title: string;
  status: string;
  content_type: string;
  target_keyword: string | null;
  published_at: string | null;
  url: string | null;
  url_source: UrlSource | null;
}

export interface AnalyticsDailyRow {
  date: string;
  views: number;
  unique_views: number;
  /** The rolling 30-day scorecard as of that night (30 closed UTC days ending `date`), with the search rank of that night. */
  external_analytics: Record<string, unknown>;
  computed_at: string;
}

export interface ContentAnalytics {
  content_summary: ContentSummary;
  scorecard: Scorecard;
  data: AnalyticsDailyRow[];
  pagination: { page: number; limit: number; total: number; total_pages: number; has_more: boolean };
}

const rowOf = (r: DailyRow): AnalyticsDailyRow => ({
  date: r.date,
  views: r.views,
  unique_views: r.unique_views,
  external_analytics: r.external_analytics,
  computed_at: r.computed_at.toISOString(),
});

/**
 * `GET /api/agent/marketing/content/{id}/analytics`: the item's live scorecard over `window` and its stored daily rows
 * between `from_date` and `to_date` (inclusive), newest first, a page at a time. Another account's item is 404.
 */
export async function contentAnalytics(
  deps: { db: Knex; config: Config },
  accountId: string,
  contentId: string,
  q: Page & { window: AnalyticsWindow; from_date: string | null; to_date: string | null },
): Promise<ContentAnalytics> {
  const item = await getContent(deps.db, accountId, contentId);
  const url = await urlOf(deps.db, accountId, item);
  const [scorecard, listed] = await Promise.all([
    scorecardOfItem(deps, accountId, item, url.url, q.window),
    listDailyRows(deps.db, accountId, item.id, { from: q.from_date, to: q.to_date, limit: q.limit, offset: offsetOf(q) }),
  ]);
  const totalPages = Math.ceil(listed.total / q.limit);
  return {
    content_summary: {
      id: item.id,
      title: item.title,
      status: item.status,
      content_type: item.content_type,
      target_keyword: item.target_keyword,
      published_at: item.published_at,
      url: url.url,
      url_source: url.url_source,
    },
    scorecard,
    data: listed.rows.map(rowOf),
    pagination: { page: q.page, limit: q.limit, total: listed.total, total_pages: totalPages, has_more: q.page < totalPages },
  };
}
