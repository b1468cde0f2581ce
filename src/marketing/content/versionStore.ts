import type { Knex } from '../../db/knex';
import type { Actor } from '../actor';
import type { ContentItem } from './contentItemJson';

export interface VersionRow {
  id: string;
  account_id: string;
  content_id: string;
  version: number;
  snapshot: ContentItem;
  changed_fields: string[];
  actor_type: Actor['type'];
  actor_id: string | null;
  created_at: Date;
}

/**
 * Appends the next version of an item. Callers hold the item's row lock (or just inserted it) in `trx`, so the
 * next number cannot race; the unique (content_id, version) index backs that up.
 */
export async function insertVersion(
  trx: Knex.Transaction,
  accountId: string,
  contentId: string,
  snapshot: ContentItem,
  changedFields: string[],
  actor: Actor,
): Promise<VersionRow> {
  const [row] = await trx('content_versions')
    .insert({
      account_id: accountId,
      content_id: contentId,
      version: trx('content_versions')
        .where({ account_id: accountId, content_id: contentId })
        .select(trx.raw('coalesce(max(version), 0) + 1')),
      snapshot: JSON.stringify(snapshot),
      changed_fields: changedFields,
      actor_type: actor.type,
      actor_id: actor.id,
    })
    .returning('*');
  return row;
}

export async function listVersions(db: Knex, accountId: string, contentId: string, page: { limit: number; offset: number }) {
  const base = db('content_versions').where({ account_id: accountId, content_id: contentId });
  const [rows, [{ count }]] = await Promise.all([
    base.clone().select('*').orderBy('version', 'desc').limit(page.limit).offset(page.offset) as Promise<VersionRow[]>,
    base.clone().count<{ count: number }[]>({ count: '*' }),
  ]);
  return { rows, total: Number(count) };
}
