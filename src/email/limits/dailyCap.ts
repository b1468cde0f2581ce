import type { Knex } from '../../db/knex';
import { utcDay } from '../usage/recorder';
import { addDailySendsWithinCap, dailySendsOf, subtractDailySends } from './dailyCapStore';

/** Takes `count` sends from the key's cap for the UTC day of `now`, or nothing (see `addDailySendsWithinCap`). */
export async function takeDailyQuota(db: Knex, keyId: string, cap: number, count: number, now: Date): Promise<boolean> {
  if (count > cap) return false;
  return addDailySendsWithinCap(db, keyId, utcDay(now), count, cap);
}

/** Sends counted against the cap today. */
export async function dailySends(db: Knex, keyId: string, now: Date): Promise<number> {
  return dailySendsOf(db, keyId, utcDay(now));
}

/** Whole seconds until the next UTC midnight, at least 1. */
export function secondsUntilUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/** Gives `count` sends back to the key's cap of `day` (messages of a queued batch that failed or never left). */
export async function refundDailyQuota(db: Knex, keyId: string, day: string, count: number): Promise<void> {
  if (count <= 0) return;
  await subtractDailySends(db, keyId, day, count);
}
