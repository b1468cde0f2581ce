import type { Knex } from '../../db/knex';
import { urlsOf } from '../content/url';
import { attributionByAsset, type AssetAttributionRow } from './attributionStore';
import { normalizePath } from './paths';
import { linkedItems } from './roiStore';

/** Assets a report answers at most (the `limit` default and maximum); more is `truncated: true`. */
export const ROI_ROW_CAP = 200;
/** Linked items read to find their pages; an account with more is `truncated: true` too. */
export const ROI_ITEMS_CAP = 5_000;

export const ROI_SORTS = ['attributed_contacts', 'deals', 'won'] as const;
export type RoiSort = (typeof ROI_SORTS)[number];

export interface RoiAsset {
  type: 'content' | 'campaign';
  content_id: string | null;
  title: string | null;
  project_id: string | null;
  path: string | null;
  campaign: string | null;
  attributed_contacts: number;
  deals: number;
  won: number;
  /** Won revenue per currency in minor units; never summed across currencies. */
  revenue: Array<{ currency: string; amount_minor: number }>;
  /** The asset's revenue spans more than one currency. */
  mixed_currency: boolean;
}

export interface RoiReport {
  from: string | null;
  to: string | null;
  sort: RoiSort;
  data: RoiAsset[];
  truncated: boolean;
}

interface Totals {
  contacts: number;
  deals: number;
  won: number;
  revenue: Map<string, number>;
}

function totalsOf(rows: AssetAttributionRow[]): Totals {
  const t: Totals = { contacts: rows[0]?.contacts ?? 0, deals: 0, won: 0, revenue: new Map() };
  for (const r of rows) {
    t.deals += r.deals;
    t.won += r.won;
    if (r.currency && r.won > 0) t.revenue.set(r.currency, (t.revenue.get(r.currency) ?? 0) + r.won_minor);
  }
  return t;
}

function assetOf(base: Pick<RoiAsset, 'type' | 'content_id' | 'title' | 'project_id' | 'path' | 'campaign'>, t: Totals): RoiAsset {
  const revenue = [...t.revenue].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount_minor]) => ({ currency, amount_minor }));
  return { ...base, attributed_contacts: t.contacts, deals: t.deals, won: t.won, revenue, mixed_currency: revenue.length > 1 };
}

const dayStart = (date: string) => new Date(`${date}T00:00:00Z`);
const nextDay = (date: string) => new Date(dayStart(date).getTime() + 86_400_000);

/**
 * Campaign ROI: per marketing asset — each content item whose page (its project and URL path) is the first touch of
 * attributed contacts, and each UTM campaign named by first touches — the attributed contacts, their deals and won
 * revenue per currency. `from`/`to` (UTC dates, both inclusive) bound the first touches. Sorted by `sort`, descending.
 */
export async function campaignRoi(
  db: Knex,
  accountId: string,
  q: { from: string | null; to: string | null; sort: RoiSort; limit: number },
): Promise<RoiReport> {
  const range = { from: q.from ? dayStart(q.from) : null, to: q.to ? nextDay(q.to) : null };
  const [rows, items] = await Promise.all([attributionByAsset(db, accountId, range), linkedItems(db, accountId, ROI_ITEMS_CAP + 1)]);
  const itemsTruncated = items.length > ROI_ITEMS_CAP;
  const shown = items.slice(0, ROI_ITEMS_CAP);
  const urls = await urlsOf(db, accountId, shown);

  const groups = new Map<string, AssetAttributionRow[]>();
  for (const r of rows) {
    const key = r.key_kind === 'page' ? `page|${r.project_id}|${r.page_path}` : `campaign|${r.campaign}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const assets: RoiAsset[] = [];
  shown.forEach((item, i) => {
    const path = urls[i].url ? normalizePath(urls[i].url!) : null;
    const group = path && item.cms_link ? groups.get(`page|${item.cms_link.project_id}|${path}`) : undefined;
    if (!group) return;
    const base = {
      type: 'content' as const,
      content_id: item.id,
      title: item.title,
      project_id: item.cms_link!.project_id,
      path,
      campaign: null,
    };
    assets.push(assetOf(base, totalsOf(group)));
  });
  for (const [key, group] of groups) {
    if (!key.startsWith('campaign|')) continue;
    const base = { type: 'campaign' as const, content_id: null, title: null, project_id: null, path: null, campaign: group[0].campaign };
    assets.push(assetOf(base, totalsOf(group)));
  }
  const by = q.sort === 'attributed_contacts' ? 'attributed_contacts' : q.sort;
  assets.sort((a, b) => b[by] - a[by] || (a.title ?? a.campaign ?? '').localeCompare(b.title ?? b.campaign ?? ''));
  return {
    from: q.from,
    to: q.to,
    sort: q.sort,
    data: assets.slice(0, q.limit),
    truncated: itemsTruncated || assets.length > q.limit,
  };
}
