import type { Knex } from '../../db/knex';

/**
 * Adds `count` sends to the key's row of `day` only while the total stays within `cap`: true when added. One atomic
 * upsert; the row lock of the conflict makes it exact across replicas.
 */
export async function addDailySendsWithinCap(db: Knex, keyId: string, day: string, count: number, cap: number): Promise<boolean> {
  const result = await db
    .raw(
      `
    insert into email_key_daily_sends (key_id, day, sends) values (?, ?, ?)
    on conflict (key_id, day) do update set sends = email_key_daily_sends.sends + excluded.sends
    where email_key_daily_sends.sends + excluded.sends <= ?
    returning sends`,
      [keyId, day, count, cap],
    )
    .options({ name: 'email_take_daily_quota' });
  return result.rows.length === 1;
}

/** Sends counted on the key's row of `day` (0 when none). */
export async function dailySendsOf(db: Knex, keyId: string, day: string): Promise<number> {
  const row = await db('email_key_daily_sends').where({ key_id: keyId, day }).first('sends');
  return row?.sends ?? 0;
}

/** Takes `count` sends off the key's row of `day`, never below 0. */
export async function subtractDailySends(db: Knex, keyId: string, day: string, count: number): Promise<void> {
  await db('email_key_daily_sends')
    .where({ key_id: keyId, day })
    .update({ sends: db.raw('greatest(sends - ?, 0)', [count]) });
}
