import type { DayRange } from './dateRange';

export interface SeededDay {
  /** ISO date (UTC). */
  date: string;
  pageviews: number;
  visitors: number;
  form_submits: number;
}

export interface TrafficRow {
  path: string;
  date: string;
  pageviews: number;
  visitors: number;
  formSubmits: number;
}

/**
 * The simulated collector's store: per site, path and day, seeded counts. Visitors of several days or paths are
 * summed (a real collector counts unique people; the sums keep tests predictable). A form submit is a conversion of
 * the form goal on that page: its visitors are the day's submitters, taken as min(visitors, form_submits).
 */
export class SeededTraffic {
  private readonly sites = new Map<string, Map<string, Map<string, SeededDay>>>();

  hasSite(siteId: string): boolean {
    return this.sites.has(siteId);
  }

  addSite(siteId: string): void {
    if (!this.sites.has(siteId)) this.sites.set(siteId, new Map());
  }

  /** Sets (replaces) the counts of these days of one path; the site comes into being when new. */
  seed(siteId: string, path: string, days: SeededDay[]): void {
    this.addSite(siteId);
    const paths = this.sites.get(siteId)!;
    const byDay = paths.get(path) ?? new Map<string, SeededDay>();
    for (const day of days) byDay.set(day.date, { ...day });
    paths.set(path, byDay);
  }

  clear(): void {
    this.sites.clear();
  }

  /** The site's rows within `range`, one per path and day. */
  rows(siteId: string, range: DayRange): TrafficRow[] {
    const rows: TrafficRow[] = [];
    for (const [path, days] of this.sites.get(siteId) ?? []) {
      for (const day of days.values()) {
        if ((range.from !== null && day.date < range.from) || day.date > range.to) continue;
        rows.push({ path, date: day.date, pageviews: day.pageviews, visitors: day.visitors, formSubmits: day.form_submits });
      }
    }
    return rows;
  }
}
