import type { Knex } from '../../db/knex';
import { listCalendarEntries, readCadence, type CalendarKind } from './store';
import { calendarWindow, daysAgo, daysAhead } from './window';

/** More entries than this in one window are cut, oldest kept, and the answer says `truncated: true`. */
export const MAX_CALENDAR_ENTRIES = 1000;

export interface CalendarEntry {
  content_id: string;
  title: string;
  kind: CalendarKind;
  date: string;
  executes: boolean;
  status: string;
  content_type: string;
}

export interface Cadence {
  as_of: string;
  published_last_30_days: number;
  published_last_90_days: number;
  published_per_week_last_90_days: number;
  scheduled_next_30_days: number;
  recorded_only_next_30_days: number;
  failed_last_30_days: number;
  last_published_at: string | null;
  next_scheduled_at: string | null;
}

export interface Calendar {
  from: string;
  to: string;
  entries: CalendarEntry[];
  truncated: boolean;
  cadence: Cadence;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function contentCalendar(db: Knex, accountId: string, asked: { from?: Date; to?: Date }, now = new Date()): Promise<Calendar> {
  const { from, to } = calendarWindow(asked, now);
  const [rows, c] = await Promise.all([
    listCalendarEntries(db, accountId, from, to, MAX_CALENDAR_ENTRIES + 1),
    readCadence(db, accountId, { now, back30: daysAgo(now, 30), back90: daysAgo(now, 90), ahead30: daysAhead(now, 30) }),
  ]);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    entries: rows.slice(0, MAX_CALENDAR_ENTRIES).map((r) => ({ ...r, date: r.date.toISOString() })),
    truncated: rows.length > MAX_CALENDAR_ENTRIES,
    cadence: {
      as_of: now.toISOString(),
      published_last_30_days: c.published_last_30_days,
      published_last_90_days: c.published_last_90_days,
      published_per_week_last_90_days: Math.round((c.published_last_90_days / (90 / 7)) * 10) / 10,
      scheduled_next_30_days: c.scheduled_next_30_days,
      recorded_only_next_30_days: c.recorded_only_next_30_days,
      failed_last_30_days: c.failed_last_30_days,
      last_published_at: iso(c.last_published_at),
      next_scheduled_at: iso(c.next_scheduled_at),
    },
  };
}
