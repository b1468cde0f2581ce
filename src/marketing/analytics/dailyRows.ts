import type { Knex } from '../../db/knex';
import { newestDays, type NewestDay } from './dailyStore';

/** The newest stored daily row of one item (its date, when it was computed, its rank), undefined before the first. */
export async function newestStored(db: Knex, accountId: string, contentId: string): Promise<NewestDay | undefined> {
  return (await newestDays(db, accountId, [contentId]))[0];
}
