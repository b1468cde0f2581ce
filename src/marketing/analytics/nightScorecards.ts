import type { AnalyticsClient, PageTraffic } from '../../clients/providers/analytics';
import type { Knex } from '../../db/knex';
import type { AttributedDeals } from './attribution';
import { attributionByAsset } from './attributionStore';
import { ledgerStatsByPath } from './ledgerStats';
import { assembleScorecard, SOCIAL_NOTE, type Scorecard } from './scorecard';
import { rangesOf } from './window';

export interface NightPage {
  contentId: string;
  path: string;
  url: string;
}

export interface NightFigures {
  /** The page's own figures that day (the collector's pageviews and visitors; zeros when it had none). */
  day: PageTraffic;
  /** The rolling 30-day scorecard as of that night (30 closed days ending that day). */
  scorecard: Scorecard;
}

const DAY_MS = 86_400_000;

/**
 * The figures of a project's pages for one closed UTC day `date`, as they stood that night: three collector queries
 * for the whole project (the day's traffic, the 30 days' traffic and form submits) and two statements (the ledger's
 * leads per page, the account's first-touch attribution). A collector failure throws (the day is not stored).
 */
export async function nightScorecards(
  db: Knex,
  client: AnalyticsClient,
  site: { accountId: string; projectId: string; siteId: string },
  pages: NightPage[],
  date: string,
): Promise<Map<string, NightFigures>> {
  const paths = [...new Set(pages.map((p) => p.path))];
  const ranges = rangesOf('30d', new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS));
  const [day, window, ledger, attribution] = await Promise.all([
    client.pageTraffic(site.siteId, paths, [date, date]),
    client.pageStats(site.siteId, paths, ranges.collector),
    ledgerStatsByPath(db, site.accountId, site.projectId, paths, ranges.ledger),
    attributionByAsset(db, site.accountId, ranges.ledger),
  ]);
  const attributed = new Map<string, { contacts: number; deals: AttributedDeals }>();
  for (const row of attribution) {
    if (row.key_kind !== 'page' || row.project_id !== site.projectId || row.page_path === null) continue;
    const a = attributed.get(row.page_path) ?? { contacts: row.contacts, deals: { count: 0, won: 0, revenue: [] } };
    a.deals.count += row.deals;
    a.deals.won += row.won;
    if (row.currency && row.won > 0) a.deals.revenue.push({ currency: row.currency, amount_minor: row.won_minor });
    attributed.set(row.page_path, a);
  }
  const figures = new Map<string, NightFigures>();
  for (const page of pages) {
    const a = attributed.get(page.path);
    const scorecard = assembleScorecard({
      contentId: page.contentId,
      window: '30d',
      page: { project_id: site.projectId, path: page.path, url: page.url },
      traffic: window.get(page.path) ?? { pageviews: 0, visitors: 0, form_submits: 0 },
      ledger: ledger.get(page.path),
      attributedContacts: a?.contacts ?? 0,
      deals: a?.deals ?? { count: 0, won: 0, revenue: [] },
      notes: [SOCIAL_NOTE],
    });
    figures.set(page.contentId, { day: day.get(page.path) ?? { pageviews: 0, visitors: 0 }, scorecard });
  }
  return figures;
}
