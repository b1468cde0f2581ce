import type { Knex } from '../../db/knex';
import { utcDay } from '../usage/recorder';

/**
 * Takes `count` sends from the key's cap for the UTC day of `now`, or nothing: one atomic upsert that increments
 * only while the total stays within the cap. The row lock of the conflict makes it exact across replicas.
 */
export async function takeDailyQuota(db: Knex, keyId: string, cap: number, count: number, now: Date): Promise<boolean> {
  if (count > cap) return false;
  const result = await db.raw(`
    insert into email_key_daily_sends (key_id, day, sends) values (?, ?, ?)
    on conflict (key_id, day) do update set sends = email_key_daily_sends.sends + excluded.sends
    where email_key_daily_sends.sends + excluded.sends <= ?
    returning sends`, [keyId, utcDay(now), count, cap]).options({ name: 'email_take_daily_quota' });
  return result.rows.length === 1;
}

/** Sends counted against the cap today. */
export async function dailySends(db: Knex, keyId: string, now: Date): Promise<number> {
  const row = await db('email_key_daily_sends').where({ key_id: keyId, day: utcDay(now) }).first('sends');
  return row?.sends ?? 0;
}

/** Whole seconds until the next UTC midnight, at least 1. */
export function secondsUntilUtcMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/** Gives `count` sends back to the key's cap of `day` (messages of a queued batch that failed or never left). */
export async function refundDailyQuota(db: Knex, keyId: string, day: string, count: number): Promise<void> {
  if (count <= 0) return;
  await db('email_key_daily_sends').where({ key_id: keyId, day }).update({ sends: db.raw('greatest(sends - ?, 0)', [count]) });
}
