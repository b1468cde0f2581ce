import type { Knex } from '../../db/knex';
import { isForeignKeyViolation } from '../../db/errors';
import { invalidReference } from './errors';

/** A content_items row as Postgres returns it. */
export interface ContentRow {
  id: string;
  account_id: string;
  title: string;
  slug: string | null;
  body: string | null;
  excerpt: string | null;
  status: string;
  content_type: string;
  category_id: string | null;
  tags: string[];
  settings: Record<string, unknown>;
  avatar_id: string | null;
  journey_id: string | null;
  journey_stage: string | null;
  before_after_grid_id: string | null;
  target_keyword: string | null;
  meta_title: string | null;
  meta_description: string | null;
  featured_image_url: string | null;
  featured_image_alt: string | null;
  meta_keywords: string | null;
  canonical_url: string | null;
  cms_link: { project_id: string; collection_id: string; item_id?: string | null } | null;
  deploy_target: string;
  scheduled_publish_at: Date | null;
  /** True exactly while the item's content-publish workflow holds scheduled_publish_at (schedule/hold.ts). */
  schedule_executes: boolean;
  published_at: Date | null;
  publish_failed_at: Date | null;
  publish_error: unknown;
  created_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A content row with the names of its grounding objects (null when unset or gone). */
export interface ContentRowWithNames extends ContentRow {
  avatar_name: string | null;
  journey_name: string | null;
  grid_name: string | null;
}

/**
 * Content items of an account joined to the names of their avatar, journey and grid. The joins also filter on the
 * account, so a stray id of another account can never leak a name.
 */
export function contentWithNames(db: Knex | Knex.Transaction, accountId: string): Knex.QueryBuilder {
  return db('content_items as c')
    .where('c.account_id', accountId)
    .leftJoin('customer_avatars as a', (j) => j.on('a.id', 'c.avatar_id').andOn('a.account_id', 'c.account_id'))
    .leftJoin('customer_journeys as j', (j) => j.on('j.id', 'c.journey_id').andOn('j.account_id', 'c.account_id'))
    .leftJoin('before_after_grids as g', (j) => j.on('g.id', 'c.before_after_grid_id').andOn('g.account_id', 'c.account_id'))
    .select('c.*', 'a.name as avatar_name', 'j.name as journey_name', 'g.name as grid_name');
}

export async function findContent(db: Knex | Knex.Transaction, accountId: string, id: string): Promise<ContentRowWithNames | undefined> {
  return contentWithNames(db, accountId).where('c.id', id).first();
}

/** 1 when `id` is a row of `table` in the account, else 0. `id` is a validated uuid. */
/** Locks the item's row for the rest of the transaction (updates of one item run one after another). */
export async function lockContent(trx: Knex.Transaction, accountId: string, id: string): Promise<ContentRow | undefined> {
  return trx('content_items').where({ account_id: accountId, id }).forUpdate().first();
}

export type ContentColumns = Partial<Omit<ContentRow, 'id' | 'account_id' | 'cms_link' | 'settings' | 'created_at'>> & {
  cms_link?: string | null;
  settings?: string;
};

export async function insertContent(trx: Knex.Transaction, accountId: string, columns: ContentColumns): Promise<string> {
  const [row] = await trx('content_items')
    .insert({ ...columns, account_id: accountId })
    .returning('id')
    .catch(linkedProjectGone);
  return row.id;
}

export async function updateContentColumns(trx: Knex.Transaction, accountId: string, id: string, columns: ContentColumns): Promise<void> {
  await trx('content_items')
    .where({ account_id: accountId, id })
    .update({ ...columns, updated_at: trx.fn.now() })
    .catch(linkedProjectGone);
}

/** The cms_link project was deleted after the link was checked (content_items.cms_project_id carries a foreign key). */
function linkedProjectGone(err: unknown): never {
  if (isForeignKeyViolation(err, 'content_items_cms_project_fk')) throw invalidReference('cms_link.project_id', 'website project');
  throw err;
}

export async function deleteContentRow(db: Knex, accountId: string, id: string): Promise<number> {
  return db('content_items').where({ account_id: accountId, id }).delete();
}
