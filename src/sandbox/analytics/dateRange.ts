/** Inclusive ISO dates; `from` null means "since the site's first seeded day" (`all`). */
export interface DayRange {
  from: string | null;
  to: string;
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * A Stats API v2 `date_range` resolved the way the reference resolves it, in UTC (the simulated sites' time zone):
 * `day` is today; `Nd` is the N days before today, today excluded; `month` and `year` the calendar ones holding today;
 * `Nmo` the N whole months before this one; `all` up to today; `[from, to]` ISO dates, inclusive. Null when invalid.
 */
export function resolveDateRange(value: unknown, now: Date): DayRange | null {
  const today = isoDay(now.getTime());
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  if (Array.isArray(value)) {
    if (value.length !== 2 || !value.every((v) => typeof v === 'string' && ISO_DATE.test(v) && !Number.isNaN(Date.parse(v)))) return null;
    return value[0] <= value[1] ? { from: value[0], to: value[1] } : null;
  }
  if (value === 'day') return { from: today, to: today };
  if (value === 'all') return { from: null, to: today };
  if (value === 'month') return { from: `${today.slice(0, 7)}-01`, to: isoDay(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)) };
  if (value === 'year') return { from: `${today.slice(0, 4)}-01-01`, to: `${today.slice(0, 4)}-12-31` };
  const days = typeof value === 'string' ? /^(\d+)d$/.exec(value) : null;
  if (days && Number(days[1]) > 0 && Number(days[1]) <= 5000) {
    return { from: isoDay(todayMs - Number(days[1]) * DAY_MS), to: isoDay(todayMs - DAY_MS) };
  }
  const months = typeof value === 'string' ? /^(\d+)mo$/.exec(value) : null;
  if (months && Number(months[1]) > 0 && Number(months[1]) <= 100) {
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth();
    return { from: isoDay(Date.UTC(y, m - Number(months[1]), 1)), to: isoDay(Date.UTC(y, m, 0)) };
  }
  return null;
}
