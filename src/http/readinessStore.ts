import type { Knex } from '../db/knex';

/** The cheapest round trip to Postgres: the readiness probe's database check. */
export async function pingDatabase(db: Knex): Promise<void> {
  await db.raw('select 1');
}
