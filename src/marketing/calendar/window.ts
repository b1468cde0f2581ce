import { z } from 'zod';
import { ApiError } from '../../http/errors';

const DAY_MS = 86_400_000;

export const CALENDAR = {
  /** Each absent bound is this many days from now: `from` before, `to` after. */
  defaultReachDays: 45,
  maxWindowDays: 190,
} as const;

export interface CalendarWindow {
  from: Date;
  to: Date;
}

/**
 * One bound of the window: an ISO 8601 timestamp with a zone, or a date alone (`YYYY-MM-DD`, UTC). A date alone
 * means the start of that day for `from` and its last millisecond for `to`, so `from=2026-12-01&to=2026-12-31` is all
 * of December. A local time without a zone is ambiguous and refused.
 */
export const calendarBound = (which: 'from' | 'to') =>
  z.string().transform((value, ctx) => {
    if (z.iso.date().safeParse(value).success) {
      const start = new Date(`${value}T00:00:00.000Z`);
      return which === 'from' ? start : new Date(start.getTime() + DAY_MS - 1);
    }
    if (z.iso.datetime({ offset: true }).safeParse(value).success) return new Date(value);
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: 'must be an ISO 8601 timestamp with a time zone (2026-12-01T09:00:00Z) or a date (2026-12-01)',
    });
    return z.NEVER;
  });

/** The window asked for, each absent bound defaulting to 45 days from `now`; refuses inverted and over-long windows. */
export function calendarWindow(asked: { from?: Date; to?: Date }, now: Date): CalendarWindow {
  const from = asked.from ?? daysAgo(now, CALENDAR.defaultReachDays);
  const to = asked.to ?? daysAhead(now, CALENDAR.defaultReachDays);
  if (to < from) {
    const message = `to (${to.toISOString()}) is before from (${from.toISOString()})`;
    throw new ApiError(400, 'calendar_window_invalid', message, { errors: [{ path: 'query.to', message }] });
  }
  if (to.getTime() - from.getTime() > CALENDAR.maxWindowDays * DAY_MS) {
    const message = `the window from ${from.toISOString()} to ${to.toISOString()} is over ${CALENDAR.maxWindowDays} days`;
    throw new ApiError(400, 'calendar_window_too_large', message, { errors: [{ path: 'query.to', message }] });
  }
  return { from, to };
}

export const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);
export const daysAhead = (now: Date, days: number) => new Date(now.getTime() + days * DAY_MS);
