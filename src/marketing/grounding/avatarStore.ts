import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';
import { whereNameContains } from './nameSearchStore';

export interface AvatarRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  attributes: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export type AvatarFields = Partial<Pick<AvatarRow, 'name' | 'description' | 'attributes'>>;

const table = 'customer_avatars';

/** jsonb columns take JSON text: pg would send a JS array as a Postgres array. */
const toColumns = (f: AvatarFields) => ({ ...f, ...(f.attributes !== undefined ? { attributes: JSON.stringify(f.attributes) } : {}) });

/** Newest first. */
export async function listAvatars(db: Knex, accountId: string, search: string | undefined, page: Page) {
  const filtered = () => whereNameContains(db(table).where('account_id', accountId), search);
  const [rows, [{ count }]] = await Promise.all([
    filtered()
      .select('*')
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .offset(offsetOf(page)) as Promise<AvatarRow[]>,
    filtered().count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}

export async function findAvatar(db: Knex, accountId: string, id: string): Promise<AvatarRow | undefined> {
  return db(table).where({ account_id: accountId, id }).first();
}

/** The avatar's id and name, locked against deletion for the caller's transaction (content references it). */
export async function lockAvatarRef(db: Knex, accountId: string, id: string): Promise<{ id: string; name: string } | undefined> {
  return db(table).where({ account_id: accountId, id }).forKeyShare().first('id', 'name');
}

export async function insertAvatar(db: Knex, accountId: string, fields: AvatarFields & { name: string }): Promise<AvatarRow> {
  const [row] = await db(table)
    .insert({ account_id: accountId, ...toColumns(fields) })
    .returning('*');
  return row;
}

export async function updateAvatar(db: Knex, accountId: string, id: string, fields: AvatarFields): Promise<AvatarRow | undefined> {
  const [row] = await db(table)
    .where({ account_id: accountId, id })
    .update({ ...toColumns(fields), updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** True when a row was deleted. Content items that named it keep existing with `avatar_id` null (FK on delete set null). */
export async function deleteAvatar(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(table).where({ account_id: accountId, id }).delete()) > 0;
}
