import type { Knex } from '../../db/knex';
import { isUuid } from '../../http/ids';
import type { SitePlatformDeps } from '../../sitePlatform/connections';
import type { Actor } from '../actor';
import { checkSentCmsLink } from './cmsLink';
import { contentNotFound } from './errors';
import { toContentItem, type ContentItem } from './representation';
import type { CreateInput, UpdateInput } from './schemas';
import type { KeywordPrecedence } from './settings';
import { deleteContentRow, findContent, insertContent, lockContent, updateContentColumns } from './store';
import { insertVersion } from './versionStore';
import { changedFields, columnsOfWrite, NEW_ITEM, sentFields } from './write';

export type { ContentItem } from './representation';

/** One item of the account; a missing, malformed or other-account id is 404 `content_not_found`. */
export async function getContent(db: Knex, accountId: string, id: string): Promise<ContentItem> {
  if (!isUuid(id)) throw contentNotFound();
  const row = await findContent(db, accountId, id);
  if (!row) throw contentNotFound();
  return toContentItem(row);
}

/**
 * Creates an item and its version 1 in one transaction. The top-level keyword wins over settings.target_keyword.
 * A cms_link is checked against the site platform first, outside the transaction.
 */
export async function createContent(deps: SitePlatformDeps, accountId: string, input: CreateInput, actor: Actor): Promise<ContentItem> {
  await checkSentCmsLink(deps, accountId, null, input.cms_link);
  return deps.db.transaction(async (trx) => {
    const columns = await columnsOfWrite(trx, accountId, NEW_ITEM, input, 'top_level', new Date());
    if (actor.type === 'user') columns.created_by_user_id = actor.id;
    const id = await insertContent(trx, accountId, columns);
    const item = toContentItem((await findContent(trx, accountId, id))!);
    await insertVersion(trx, accountId, id, item, sentFields(input), actor);
    return item;
  });
}

/**
 * Applies a PUT or PATCH: absent keys stay, null clears, settings merge. A new cms_link is checked against the site
 * platform before the transaction; then the row is locked, every other check runs before the write, and the new
 * version row is written in the same transaction. A write that changes nothing (an autosave echo) is rolled back:
 * no version, no new updated_at.
 */
export async function updateContent(
  deps: SitePlatformDeps,
  accountId: string,
  id: string,
  input: UpdateInput,
  precedence: KeywordPrecedence,
  actor: Actor,
): Promise<ContentItem> {
  if (!isUuid(id)) throw contentNotFound();
  if (input.cms_link) {
    const current = await findContent(deps.db, accountId, id);
    if (!current) throw contentNotFound();
    await checkSentCmsLink(deps, accountId, current.cms_link, input.cms_link);
  }
  const trx = await deps.db.transaction();
  try {
    const stored = await lockContent(trx, accountId, id);
    if (!stored) throw contentNotFound();
    const before = toContentItem((await findContent(trx, accountId, id))!);
    await updateContentColumns(trx, accountId, id, await columnsOfWrite(trx, accountId, stored, input, precedence, new Date()));
    const after = toContentItem((await findContent(trx, accountId, id))!);
    const changed = changedFields(before, after);
    if (changed.length === 0) {
      await trx.rollback();
      return before;
    }
    await insertVersion(trx, accountId, id, after, changed, actor);
    await trx.commit();
    return after;
  } catch (err) {
    if (!trx.isCompleted()) await trx.rollback();
    throw err;
  }
}

/** Deletes an item with its versions, comments and reviews (they cascade). */
export async function deleteContent(db: Knex, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw contentNotFound();
  if ((await deleteContentRow(db, accountId, id)) === 0) throw contentNotFound();
}

/**
 * Sets `settings.research` of an item (the research run's last step) and nothing else: the row is locked so a
 * concurrent edit's settings and this stamp never overwrite each other, sibling settings keys stay as they are,
 * and no content version is written (the author's content did not change). updated_at does move: the item as
 * every route returns it changed, and clients that sync by updated_at must see the new research.
 */
export async function stampResearch(db: Knex, accountId: string, contentId: string, research: object): Promise<void> {
  if (!isUuid(contentId)) throw contentNotFound();
  await db.transaction(async (trx) => {
    const stored = await lockContent(trx, accountId, contentId);
    if (!stored) throw contentNotFound();
    await updateContentColumns(trx, accountId, contentId, { settings: JSON.stringify({ ...stored.settings, research }) });
  });
}
