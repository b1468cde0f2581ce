import type { AnalyticsRange } from '../../clients/providers/analytics';
import type { LedgerRange } from './ledgerStore';

/** The analytics windows of the scorecard and the views batch: closed UTC days before today, or everything. */
export const WINDOWS = ['7d', '30d', '90d', 'all'] as const;
export type AnalyticsWindow = (typeof WINDOWS)[number];

const DAYS: Record<Exclude<AnalyticsWindow, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };
const DAY_MS = 86_400_000;

const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * The same window for both sources: N closed UTC days ending yesterday (the collector's dates inclusive, the ledger's
 * instants from the first day's midnight to today's), or all time.
 */
export function rangesOf(window: AnalyticsWindow, now: Date): { collector: AnalyticsRange; ledger: LedgerRange } {
  if (window === 'all') return { collector: 'all', ledger: {} };
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = today - DAYS[window] * DAY_MS;
  return { collector: [isoDate(from), isoDate(today - DAY_MS)], ledger: { from: new Date(from), to: new Date(today) } };
}
