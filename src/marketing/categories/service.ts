import type { Knex } from '../../db/knex';
import { isUniqueViolation } from '../../db/errors';
import { isUuid } from '../../http/ids';
import { ApiError } from '../../http/errors';
import { invalidField } from '../grounding/errors';
import type { ListQuery } from '../grounding/listing';
import { slugify } from './slug';
import * as store from './store';
import type { CategoryRow } from './store';

export type { CategoryRow };

export const categoryNotFound = () => new ApiError(404, 'category_not_found', 'category not found');

export interface CategoryInput {
  name?: string;
  /** null (or absent on create) derives the slug from the name. */
  slug?: string | null;
  description?: string | null;
}

/** The slug to store: the one sent, or the name's; a name without ASCII letters or digits needs an explicit slug. */
function slugFor(name: string, slug: string | null | undefined): string {
  const chosen = slug ?? slugify(name);
  if (!chosen) throw invalidField('body.slug', 'the name has no letters or digits (a-z, 0-9) to make a slug from; send a slug');
  return chosen;
}

/** Maps a unique violation of the name or slug index to its 409; anything else passes through. */
async function uniquely<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err, store.NAME_INDEX)) {
      throw new ApiError(409, 'category_name_taken', 'another category of this account has this name (names are compared ignoring case)', {
        details: { field: 'name' },
      });
    }
    if (isUniqueViolation(err, store.SLUG_INDEX)) {
      throw new ApiError(409, 'category_slug_taken', 'another category of this account has this slug', { details: { field: 'slug' } });
    }
    throw err;
  }
}

export async function listCategories(db: Knex, accountId: string, { search, page, limit }: ListQuery) {
  return store.listCategories(db, accountId, search, { page, limit });
}

/** The category, or undefined when the id is malformed, missing or another account's. */
export async function findCategory(db: Knex, accountId: string, id: string): Promise<CategoryRow | undefined> {
  return isUuid(id) ? store.findCategory(db, accountId, id) : undefined;
}

/** The category; 404 `category_not_found` when the id is malformed, missing or another account's. */
export async function getCategory(db: Knex, accountId: string, id: string): Promise<CategoryRow> {
  const row = await findCategory(db, accountId, id);
  if (!row) throw categoryNotFound();
  return row;
}

/** `{ id, name }` of a category a write references, locked for the caller's transaction; undefined when not in the account. */
export async function categoryRef(db: Knex, accountId: string, id: string) {
  return isUuid(id) ? store.lockCategoryRef(db, accountId, id) : undefined;
}

export async function createCategory(db: Knex, accountId: string, input: CategoryInput & { name: string }): Promise<CategoryRow> {
  const slug = slugFor(input.name, input.slug);
  return uniquely(() => store.insertCategory(db, accountId, { name: input.name, slug, description: input.description ?? null }));
}

/**
 * Partial update. Renaming keeps the slug (links that use it keep working); send `slug` to change it, or
 * `slug: null` to derive it again from the (new) name.
 */
export async function updateCategory(db: Knex, accountId: string, id: string, input: CategoryInput): Promise<CategoryRow> {
  const current = await getCategory(db, accountId, id);
  if (Object.keys(input).length === 0) return current;
  const { slug, ...fields } = input;
  const changes = slug === undefined ? fields : { ...fields, slug: slugFor(fields.name ?? current.name, slug) };
  const row = await uniquely(() => store.updateCategory(db, accountId, id, changes));
  if (!row) throw categoryNotFound();
  return row;
}

export async function deleteCategory(db: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await store.deleteCategory(db, accountId, id))) throw categoryNotFound();
}
