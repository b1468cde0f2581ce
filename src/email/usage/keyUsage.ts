import type { Knex } from '../../db/knex';
import { pendingUsage } from './flusher';
import { utcDay } from './recorder';
import { usageTotals } from './usageStore';

export interface KeyUsage {
  last_used_at: string | null;
  sends_lifetime: number;
  sends_last_30_days: number;
  rate_limit_hits: number;
  failed_auth_attempts: number;
}

const DAY_MS = 86_400_000;

/** A key's usage: what is written (sums over its daily rows) plus what this process has not flushed yet. */
export async function keyUsage(
  db: Knex,
  accountId: string,
  key: { id: string; last_used_at: Date | null },
  now = new Date(),
): Promise<KeyUsage> {
  const since = utcDay(new Date(now.getTime() - 29 * DAY_MS)); // today and the 29 UTC days before it
  const row = await usageTotals(db, accountId, key.id, since);
  let lastUsed = key.last_used_at;
  for (const pending of pendingUsage(key.id)) {
    for (const day of pending.days) {
      row.sends += day.sends;
      if (day.day >= since) row.recent += day.sends;
      row.rate_limited += day.rateLimited;
      row.failed_auth += day.failedAuth;
    }
    if (pending.lastUsedAt && (!lastUsed || pending.lastUsedAt > lastUsed)) lastUsed = pending.lastUsedAt;
  }
  return {
    last_used_at: lastUsed ? lastUsed.toISOString() : null,
    sends_lifetime: row.sends,
    sends_last_30_days: row.recent,
    rate_limit_hits: row.rate_limited,
    failed_auth_attempts: row.failed_auth,
  };
}
