import type { Config } from '../config';
import { createDb, type Knex } from '../db/knex';
import { databaseUrlFor } from './connections';
import { CliError } from './errors';

/** A small pool for a one-shot command, closed when it is done; a database without tables says to migrate first. */
export async function withAdminDb<T>(command: string, config: Config, work: (db: Knex) => Promise<T>): Promise<T> {
  const db = createDb(databaseUrlFor(command, config), 2);
  try {
    return await work(db);
  } catch (err) {
    if ((err as { code?: string }).code === '42P01')
      throw new CliError(`the database has no tables yet: run \`npm run cli -- migrate\` first`);
    throw err;
  } finally {
    await db.destroy();
  }
}
