import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import type { ProjectFillResult } from '../../../workflows/contentAnalyticsDaily.contract';
import { createAnalyticsClient } from '../../clients/providers/analytics';
import { ProviderError } from '../../clients/providers/errors';
import { findOwnProject } from '../../projects/service';
import { keywordOf } from '../content/settings';
import { urlsOf } from '../content/url';
import { analyticsProjectsPage, insertDailyRows, newestDays, projectItems, type AnalyticsProject } from './dailyStore';
import { nightScorecards, type NightPage } from './nightScorecards';
import { normalizePath } from './paths';
import { measureRank, rankDue, rankOf, type StoredRank } from './rank';

/** Closed UTC days the nightly job fills back at most: a day older than this that was never stored stays missing. */
export const FILL_DAYS = 30;
/** Days one activity call stores for a project (each costs three collector queries); the workflow calls again for the rest. */
export const DEFAULT_DAYS_PER_CALL = 7;
export const MAX_DAYS_PER_CALL = FILL_DAYS;
/** Linked items of one project the job measures (oldest first); more are reported as `items_capped`. */
export const MAX_ITEMS_PER_PROJECT = 1_000;

const DAY_MS = 86_400_000;
const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);
const dayAfter = (date: string) => isoDate(Date.parse(`${date}T00:00:00Z`) + DAY_MS);
const later = (a: string, b: string) => (a > b ? a : b);

/** A page of the projects the nightly job visits: a collector site id and at least one linked item. */
export function nightlyProjectsPage(db: Knex, page: { afterId: string | null; limit: number }): Promise<AnalyticsProject[]> {
  return analyticsProjectsPage(db, page.afterId, Math.min(Math.max(1, page.limit), 500));
}

interface PlannedPage extends NightPage {
  /** The first day this item still needs a row for. */
  next: string;
  keyword: string | null;
  previousRank: StoredRank;
}

/**
 * Stores the daily rows of one project's linked items: for each item, every closed UTC day from the day after its
 * newest stored row (at most FILL_DAYS back, never before the item existed) to yesterday, oldest first, at most
 * `maxDays` days per call. Each row holds the page's views and unique views that day and the rolling 30-day scorecard
 * as of that night. Idempotent: a stored (item, day) is never written again. The collector failing stops the call
 * with what was stored so far; the missing days are filled on the next run. Yesterday's row also carries the item's
 * search rank for its target keyword, measured at most every ANALYTICS_RANK_EVERY_DAYS days within the monthly cap.
 */
export async function fillProjectDays(
  deps: { db: Knex; config: Config },
  input: { accountId: string; projectId: string; maxDays?: number },
  now: Date = new Date(),
): Promise<ProjectFillResult> {
  const result: ProjectFillResult = {
    account_id: input.accountId,
    project_id: input.projectId,
    status: 'up_to_date',
    items: 0,
    items_capped: false,
    rows_stored: 0,
    days: [],
    remaining_days: 0,
    rank_measured: 0,
  };
  const project = await findOwnProject(deps.db, input.accountId, input.projectId);
  if (!project) return { ...result, status: 'project_gone' };
  const client = createAnalyticsClient(deps.config);
  if (!client) return { ...result, status: 'collector_not_configured' };
  if (!project.analytics_site_id) return { ...result, status: 'no_collector_site' };

  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const yesterday = isoDate(today - DAY_MS);
  const horizon = isoDate(today - FILL_DAYS * DAY_MS);
  const items = await projectItems(deps.db, input.accountId, project.id, MAX_ITEMS_PER_PROJECT + 1);
  result.items_capped = items.length > MAX_ITEMS_PER_PROJECT;
  const linked = items.slice(0, MAX_ITEMS_PER_PROJECT);
  const urls = await urlsOf(deps.db, input.accountId, linked);
  const newest = new Map(
    (
      await newestDays(
        deps.db,
        input.accountId,
        linked.map((i) => i.id),
      )
    ).map((r) => [r.content_id, r]),
  );
  const pages: PlannedPage[] = [];
  linked.forEach((item, i) => {
    const url = urls[i].url;
    const path = url ? normalizePath(url) : null;
    if (!url || !path) return;
    const stored = newest.get(item.id);
    pages.push({
      contentId: item.id,
      path,
      url,
      next: later(later(stored ? dayAfter(stored.date) : horizon, horizon), item.created_day),
      keyword: keywordOf(item),
      previousRank: rankOf(stored?.rank),
    });
  });
  result.items = pages.length;
  const first = pages.reduce<string | null>((min, p) => (p.next <= yesterday && (min === null || p.next < min) ? p.next : min), null);
  if (first === null) return result;

  const due: string[] = [];
  for (let d = first; d <= yesterday; d = dayAfter(d)) due.push(d);
  const maxDays = Math.min(Math.max(1, Math.floor(input.maxDays ?? DEFAULT_DAYS_PER_CALL)), MAX_DAYS_PER_CALL);
  const site = { accountId: input.accountId, projectId: project.id, siteId: project.analytics_site_id };
  for (const date of due.slice(0, maxDays)) {
    const ofDay = pages.filter((p) => p.next <= date);
    let figures;
    try {
      figures = await nightScorecards(deps.db, client, site, ofDay, date);
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      return { ...result, status: 'collector_unavailable', code: err.code, remaining_days: due.length - result.days.length };
    }
    const rows = [];
    for (const page of ofDay) {
      const f = figures.get(page.contentId)!;
      let rank = page.previousRank;
      if (date === yesterday && page.keyword && rankDue(rank, page.keyword, deps.config.ANALYTICS_RANK_EVERY_DAYS, now)) {
        rank = await measureRank(deps, input.accountId, page.keyword, page.url, rank, now);
        if (rank.note === null) result.rank_measured++;
      } else if (!page.keyword) {
        rank = { keywords: [], note: 'rank is not measured: the item has no target keyword' };
      }
      page.previousRank = rank;
      rows.push({
        account_id: input.accountId,
        content_id: page.contentId,
        day: date,
        views: f.day.pageviews,
        unique_views: f.day.visitors,
        external_analytics: { ...f.scorecard, as_of: date, rank },
      });
    }
    result.rows_stored += await insertDailyRows(deps.db, rows);
    result.days.push(date);
  }
  return { ...result, status: 'stored', remaining_days: due.length - result.days.length };
}
