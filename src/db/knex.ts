import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

export type { Knex };

// int8 (counts, minor-unit amounts) as numbers: every value we store fits in 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

/** A connection attempt to a server that does not answer (a host gone, a network partition) gives up after this long. */
export const CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long a query waits for a pooled connection before it fails as a timeout (knex's own default is 60 s): a request
 * answers 503 `database_unavailable` by then instead of holding its client that long.
 */
export const ACQUIRE_TIMEOUT_MS = 15_000;

export function createDb(connectionString: string, poolMax = 10): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString, application_name: 'workyard', connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: ACQUIRE_TIMEOUT_MS,
  });
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = await db.migrate.latest({ directory: MIGRATIONS_DIR, loadExtensions: ['.ts'] });
  return applied as string[];
}
