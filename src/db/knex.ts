import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type { Knex };

// int8 (counts, minor-unit amounts) as numbers: every value we store fits in 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

export function createDb(connectionString: string, poolMax = 10): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString, application_name: 'workyard' },
    pool: { min: 0, max: poolMax },
  });
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = await db.migrate.latest({ directory: MIGRATIONS_DIR, loadExtensions: ['.ts'] });
  return applied as string[];
}
