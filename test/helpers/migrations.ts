import { MIGRATIONS_DIR, type Knex } from '../../src/db/knex';

export const MIGRATION_OPTIONS = { directory: MIGRATIONS_DIR, loadExtensions: ['.ts'] };

/** Applies migrations one by one until `name` is the next pending one (a data migration's test seeds before it). */
export async function migrateUpTo(db: Knex, name: string): Promise<void> {
  for (;;) {
    const [, pending] = (await db.migrate.list(MIGRATION_OPTIONS)) as [unknown, Array<{ file: string }>];
    if (pending.length === 0 || pending[0].file === name) return;
    await db.migrate.up(MIGRATION_OPTIONS);
  }
}
