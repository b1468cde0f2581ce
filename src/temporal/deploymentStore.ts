import type { Knex } from '../db/knex';

/** This database's deployment id (made by its migration); null when the database has not been migrated that far. */
export async function readDeploymentId(db: Knex): Promise<string | null> {
  const exists = await db.raw(`select to_regclass('deployment_identity') is not null as present`);
  if (!exists.rows[0].present) return null;
  const row = await db('deployment_identity').first('deployment_id');
  return row ? String(row.deployment_id) : null;
}
