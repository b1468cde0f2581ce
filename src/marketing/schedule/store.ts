import type { Knex } from '../../db/knex';
import type { DeployTarget } from '../content/contentItemJson';

/** The schedule columns of an item that the public representation leaves out. */
export interface ScheduleRow {
  scheduled_publish_at: Date | null;
  schedule_executes: boolean;
  deploy_target: DeployTarget;
  publish_failed_at: Date | null;
  publish_error: unknown;
}

export async function findScheduleRow(db: Knex, accountId: string, contentId: string): Promise<ScheduleRow | undefined> {
  return db('content_items')
    .where({ account_id: accountId, id: contentId })
    .first('scheduled_publish_at', 'schedule_executes', 'deploy_target', 'publish_failed_at', 'publish_error');
}

/**
 * Records a platform entry on the item's link at once, while the link still names that project and collection: the
 * entry exists on the platform whatever the write or publish that made it does next, and a retry finds it.
 * - `staged` (a draft staged by a schedule request): only while the link has no entry yet; no version (the author's
 *   content did not change) and updated_at stays.
 * - `published` (a publish created the entry, or re-created one the platform lost): replaces the id; updated_at moves.
 */
export async function recordLinkedEntry(
  db: Knex,
  accountId: string,
  contentId: string,
  link: { project_id: string; collection_id: string },
  itemId: string,
  why: 'staged' | 'published',
): Promise<void> {
  const sameLink = `cms_link->>'project_id' = ? and cms_link->>'collection_id' = ?`;
  await db('content_items')
    .where({ account_id: accountId, id: contentId })
    .whereRaw(why === 'staged' ? `${sameLink} and coalesce(cms_link->>'item_id', '') = ''` : sameLink, [
      link.project_id,
      link.collection_id,
    ])
    .update({
      cms_link: db.raw(`jsonb_set(cms_link, '{item_id}', to_jsonb(?::text))`, [itemId]),
      ...(why === 'published' ? { updated_at: db.fn.now() } : {}),
    });
}

export async function findScheduleLink(
  db: Knex,
  accountId: string,
  contentId: string,
): Promise<{ project_id: string; collection_id: string; item_id?: string | null } | undefined> {
  const row = await db('content_items').where({ account_id: accountId, id: contentId }).first('cms_link');
  return row?.cms_link ?? undefined;
}
