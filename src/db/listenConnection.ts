import type { Knex } from './knex';

/** The pg settings of a knex pool, for a dedicated LISTEN connection (LISTEN belongs to a session, not a pool). */
export function listenConnectionOf(db: Knex, fallbackUrl?: string): Record<string, unknown> {
  const connection = (db.client as { config: { connection?: unknown } }).config.connection;
  if (typeof connection === 'string') return { connectionString: connection };
  if (connection && typeof connection === 'object') return connection as Record<string, unknown>;
  return { connectionString: fallbackUrl };
}
