import type { Config } from '../../config';
import type { Knex } from '../../db/knex';
import { createAnalyticsClient, type PageStats } from '../../clients/providers/analytics';
import { ProviderError } from '../../clients/providers/errors';
import { findOwnProject } from '../../projects/service';
import { getContent } from '../content/service';
import type { ContentItem } from '../content/contentItemJson';
import { urlOf } from '../content/url';
import { attributedContacts, attributedDeals, type AttributedDeals } from './attribution';
import { newestStored } from './dailyRows';
import { ledgerStats, type LedgerPathStats } from './ledgerStats';
import { rankOf } from './rank';
import { normalizePath } from './paths';
import { rangesOf, type AnalyticsWindow } from './window';

export interface Scorecard {
  content_id: string;
  window: AnalyticsWindow;
  /** The page measured: the item's project and the path of its URL; null when it has none (every figure is null then). */
  page: { project_id: string; path: string; url: string } | null;
  views: number | null;
  visitors: number | null;
  form_submits: number | null;
  leads: number | null;
  contacts: number | null;
  attributed_contacts: number | null;
  deals: AttributedDeals | null;
  /** leads ÷ visitors, null without visitors. */
  lead_rate: number | null;
  rank: { keywords: Array<{ keyword: string; position: number | null; measured_at: string }> };
  social: null;
  /** The newest stored daily row, null before the nightly job stored one. */
  last_stored: { date: string; computed_at: string } | null;
  /** The collector could not answer (or is not configured, or the project has no collector site id): its figures are null. */
  degraded: boolean;
  notes: string[];
}

const empty = (contentId: string, window: AnalyticsWindow, notes: string[]): Scorecard => ({
  content_id: contentId,
  window,
  page: null,
  views: null,
  visitors: null,
  form_submits: null,
  leads: null,
  contacts: null,
  attributed_contacts: null,
  deals: null,
  lead_rate: null,
  rank: { keywords: [] },
  social: null,
  last_stored: null,
  degraded: false,
  notes,
});

export const SOCIAL_NOTE = 'social is null: no social source is connected yet';
export const RANK_NOTE = 'rank.keywords is empty until the nightly analytics job has measured the item';

/**
 * An item's scorecard over `window`: its page (the cms_link project and the path of the item's URL) measured by the
 * collector (views, visitors, form submits), the forms ledger (leads, contacts) and the attribution model (attributed
 * contacts, their deals). Another account's item is 404. Writes nothing.
 */
export async function scorecard(
  deps: { db: Knex; config: Config },
  accountId: string,
  contentId: string,
  window: AnalyticsWindow,
  now = new Date(),
): Promise<Scorecard> {
  const item = await getContent(deps.db, accountId, contentId);
  return scorecardOfItem(deps, accountId, item, (await urlOf(deps.db, accountId, item)).url, window, now);
}

/** The scorecard of an item already read (and its URL already resolved). */
export async function scorecardOfItem(
  deps: { db: Knex; config: Config },
  accountId: string,
  item: ContentItem,
  url: string | null,
  window: AnalyticsWindow,
  now = new Date(),
): Promise<Scorecard> {
  const path = url ? normalizePath(url) : null;
  const project = item.cms_link ? await findOwnProject(deps.db, accountId, item.cms_link.project_id) : undefined;
  if (!project || !url || !path) {
    const why = !project ? 'the item is not linked to a website project' : 'the item has no URL yet (see url_source)';
    return empty(item.id, window, [`no figures: ${why}`, RANK_NOTE, SOCIAL_NOTE]);
  }
  const ranges = rangesOf(window, now);
  const notes = [RANK_NOTE, SOCIAL_NOTE];
  const client = createAnalyticsClient(deps.config);
  const collector = async () => {
    if (!client) return { stats: null, note: 'the web-analytics collector is not configured' };
    if (!project.analytics_site_id) return { stats: null, note: 'the project has no collector site id (analytics_site_id)' };
    try {
      const stats = await client.pageStats(project.analytics_site_id, [path], ranges.collector);
      return { stats: stats.get(path) ?? { pageviews: 0, visitors: 0, form_submits: 0 }, note: null };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      return { stats: null, note: `the web-analytics collector did not answer (${err.code})` };
    }
  };
  const [traffic, ledger, attributed, deals, stored] = await Promise.all([
    collector(),
    ledgerStats(deps.db, accountId, project.id, path, ranges.ledger),
    attributedContacts(deps.db, accountId, project.id, path, ranges.ledger, 1),
    attributedDeals(deps.db, accountId, project.id, path, ranges.ledger),
    newestStored(deps.db, accountId, item.id),
  ]);
  if (traffic.note) notes.unshift(traffic.note);
  const card = assembleScorecard({
    contentId: item.id,
    window,
    page: { project_id: project.id, path, url },
    traffic: traffic.stats,
    ledger,
    attributedContacts: attributed.count,
    deals,
    notes,
  });
  if (!stored) return card;
  const rank = rankOf(stored.rank);
  return {
    ...card,
    rank: { keywords: rank.keywords },
    last_stored: { date: stored.date, computed_at: stored.computed_at.toISOString() },
    notes: card.notes.filter((n) => n !== RANK_NOTE).concat(rank.note ? [rank.note] : []),
  };
}

/** The parts a scorecard is made of, measured by the caller (one page here, a project's pages in the nightly job). */
export interface ScorecardParts {
  contentId: string;
  window: AnalyticsWindow;
  page: NonNullable<Scorecard['page']>;
  /** The collector's figures of the page (zeros when it answered without the page); null when it could not answer. */
  traffic: PageStats | null;
  ledger: LedgerPathStats | undefined;
  attributedContacts: number;
  deals: AttributedDeals;
  notes: string[];
}

/** A scorecard from its measured parts; `rank` empty and `last_stored` null (the caller adds what is stored). */
export function assembleScorecard(p: ScorecardParts): Scorecard {
  const leads = p.ledger?.leads ?? 0;
  const visitors = p.traffic?.visitors ?? null;
  return {
    content_id: p.contentId,
    window: p.window,
    page: p.page,
    views: p.traffic?.pageviews ?? null,
    visitors,
    form_submits: p.traffic?.form_submits ?? null,
    leads,
    contacts: p.ledger?.contacts ?? 0,
    attributed_contacts: p.attributedContacts,
    deals: p.deals,
    lead_rate: visitors ? Math.round((leads / visitors) * 10_000) / 10_000 : null,
    rank: { keywords: [] },
    social: null,
    last_stored: null,
    degraded: p.traffic === null,
    notes: p.notes,
  };
}
