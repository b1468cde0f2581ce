import type pg from 'pg';
import type { Knex } from './knex';

interface PooledClient {
  acquireConnection(): Promise<pg.ClientBase>;
  releaseConnection(connection: pg.ClientBase): Promise<void>;
  emit(event: 'query', data: { sql: string; bindings: unknown[]; method: 'raw' }): boolean;
}

/**
 * Runs one named prepared statement straight on a pooled connection of `db`, for the lookups every request makes
 * (credentials): the same pool, the same `query` event as a knex query (statement counts), without knex's query
 * builder and runner, which cost more than the statement itself on a warm connection. Placeholders are `$1…`.
 * Not for use inside a transaction: it always takes its own connection.
 */
export async function preparedRows<Row>(db: Knex, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const client = db.client as unknown as PooledClient;
  const connection = await client.acquireConnection();
  try {
    client.emit('query', { sql: text, bindings: values, method: 'raw' });
    const result = await connection.query({ name, text, values });
    return result.rows as Row[];
  } finally {
    void client.releaseConnection(connection);
  }
}
