import type { Knex } from 'knex';
import { callsOfMonth, countCallBelowCap } from './searchUsageStore';

/** The first day of `now`'s UTC month, as the `date` the counter is keyed on. */
function monthOf(now: Date): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/**
 * Takes one web-search call from the account's allowance for this UTC month: true when taken, false when `cap`
 * calls were already made (nothing counted).
 */
export async function claimSearchCall(db: Knex, accountId: string, cap: number, now: Date = new Date()): Promise<boolean> {
  if (cap <= 0) return false;
  return countCallBelowCap(db, accountId, monthOf(now), cap);
}

/** Web-search calls the account made in `now`'s UTC month. */
export async function searchCallsThisMonth(db: Knex, accountId: string, now: Date = new Date()): Promise<number> {
  return callsOfMonth(db, accountId, monthOf(now));
}
