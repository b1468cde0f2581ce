import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';
import { whereNameContains } from './nameSearchStore';

/** The columns every grounding table (avatars, journey maps, before/after grids) has. */
export interface GroundingRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface GroundingTable<Row extends GroundingRow, Ref extends keyof Row> {
  table: string;
  /** jsonb columns: written as JSON text, since pg would send a JS array as a Postgres array. */
  jsonColumns?: ReadonlyArray<keyof Row>;
  /** What a reference from content answers (and locks against deletion). */
  refColumns: readonly Ref[];
}

/**
 * One account-scoped table of grounding rows: the list (newest first, name search), read, reference lock, insert,
 * update and delete every grounding store answers. `Fields` are the writable columns; `New` what an insert needs.
 */
export function groundingStore<
  Row extends GroundingRow,
  Fields extends Partial<Row>,
  New extends Fields = Fields & { name: string },
  Ref extends keyof Row = 'id' | 'name',
>({ table, jsonColumns = [], refColumns }: GroundingTable<Row, Ref>) {
  const toColumns = (fields: Fields) => {
    const columns: Record<string, unknown> = { ...fields };
    for (const column of jsonColumns) {
      if (fields[column as keyof Fields] !== undefined) columns[column as string] = JSON.stringify(fields[column as keyof Fields]);
    }
    return columns;
  };
  const own = (db: Knex, accountId: string, id: string) => db(table).where({ account_id: accountId, id });

  return {
    /** Newest first. */
    async list(db: Knex, accountId: string, search: string | undefined, page: Page) {
      const filtered = () => whereNameContains(db(table).where('account_id', accountId), search);
      const [rows, [{ count }]] = await Promise.all([
        filtered()
          .select('*')
          .orderBy([
            { column: 'created_at', order: 'desc' },
            { column: 'id', order: 'desc' },
          ])
          .limit(page.limit)
          .offset(offsetOf(page)) as Promise<Row[]>,
        filtered().count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
      ]);
      return { rows, total: Number(count) };
    },

    async find(db: Knex, accountId: string, id: string): Promise<Row | undefined> {
      return own(db, accountId, id).first();
    },

    /** The reference columns, locked against deletion for the caller's transaction (content references the row). */
    async lockRef(db: Knex, accountId: string, id: string): Promise<Pick<Row, Ref> | undefined> {
      const ref = await own(db, accountId, id)
        .forKeyShare()
        .first(...(refColumns as readonly string[]));
      return ref as Pick<Row, Ref> | undefined;
    },

    async insert(db: Knex, accountId: string, fields: New): Promise<Row> {
      const [row] = await db(table)
        .insert({ account_id: accountId, ...toColumns(fields) })
        .returning('*');
      return row;
    },

    /** Updates the given columns and stamps `updated_at` (also when none is given); undefined when not in the account. */
    async update(db: Knex, accountId: string, id: string, fields: Fields): Promise<Row | undefined> {
      const [row] = await own(db, accountId, id)
        .update({ ...toColumns(fields), updated_at: db.fn.now() })
        .returning('*');
      return row;
    },

    /** True when a row was deleted. */
    async delete(db: Knex, accountId: string, id: string): Promise<boolean> {
      return (await own(db, accountId, id).delete()) > 0;
    },
  };
}
