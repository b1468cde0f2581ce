import type { Knex } from '../../db/knex';
import { offsetOf, type Page } from '../../http/pagination';
import { whereNameContains } from '../grounding/nameSearchStore';

export interface CategoryRow {
  id: string;
  account_id: string;
  name: string;
  slug: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

export type CategoryFields = Partial<Pick<CategoryRow, 'name' | 'slug' | 'description'>>;

const table = 'marketing_categories';

/** The unique indexes a write can hit (migration 20261122001000). */
export const NAME_INDEX = 'marketing_categories_account_name';
export const SLUG_INDEX = 'marketing_categories_account_slug';

/** Alphabetical by name, ignoring case. */
export async function listCategories(db: Knex, accountId: string, search: string | undefined, page: Page) {
  const filtered = () => whereNameContains(db(table).where('account_id', accountId), search);
  const [rows, [{ count }]] = await Promise.all([
    filtered().select('*').orderByRaw('lower(name) asc, id asc').limit(page.limit).offset(offsetOf(page)) as Promise<CategoryRow[]>,
    filtered().count({ count: '*' }) as unknown as Promise<Array<{ count: number }>>,
  ]);
  return { rows, total: Number(count) };
}

export async function findCategory(db: Knex, accountId: string, id: string): Promise<CategoryRow | undefined> {
  return db(table).where({ account_id: accountId, id }).first();
}

/** The category's id and name, locked against deletion for the caller's transaction (content references it). */
export async function lockCategoryRef(db: Knex, accountId: string, id: string): Promise<{ id: string; name: string } | undefined> {
  return db(table).where({ account_id: accountId, id }).forKeyShare().first('id', 'name');
}

export async function insertCategory(db: Knex, accountId: string, fields: Required<CategoryFields>): Promise<CategoryRow> {
  const [row] = await db(table)
    .insert({ account_id: accountId, ...fields })
    .returning('*');
  return row;
}

export async function updateCategory(db: Knex, accountId: string, id: string, fields: CategoryFields): Promise<CategoryRow | undefined> {
  const [row] = await db(table)
    .where({ account_id: accountId, id })
    .update({ ...fields, updated_at: db.fn.now() })
    .returning('*');
  return row;
}

/** True when a row was deleted. Content items in it keep existing with `category_id` null (FK on delete set null). */
export async function deleteCategory(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(table).where({ account_id: accountId, id }).delete()) > 0;
}
