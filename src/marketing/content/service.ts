import type { Knex } from '../../db/knex';
import type { AppDeps } from '../../deps';
import { isUuid } from '../../http/ids';
import type { Actor } from '../actor';
import { stageDraftEntry } from '../schedule/stage';
import { findScheduleRow } from '../schedule/store';
import { releaseAfterDelete, syncHold } from '../schedule/sync';
import { checkSentCmsLink } from './cmsLink';
import { contentNotFound } from './errors';
import { toContentItem, type ContentItem } from './contentItemJson';
import type { CreateInput, UpdateInput } from './schemas';
import type { KeywordPrecedence } from './settings';
import { deleteContentRow, findContent, insertContent, lockContent, updateContentColumns, type ContentColumns } from './store';
import { insertVersion } from './versionStore';
import { changedFields, columnsOfWrite, NEW_ITEM, sentFields } from './write';

export type { ContentItem } from './contentItemJson';

/** One item of the account; a missing, malformed or other-account id is 404 `content_not_found`. */
export async function getContent(db: Knex, accountId: string, id: string): Promise<ContentItem> {
  if (!isUuid(id)) throw contentNotFound();
  const row = await findContent(db, accountId, id);
  if (!row) throw contentNotFound();
  return toContentItem(row);
}

/**
 * Creates an item and its version 1 in one transaction. The top-level keyword wins over settings.target_keyword.
 * A cms_link is checked against the site platform first, outside the transaction, then a draft site entry is staged
 * when the item is scheduled (schedule/stage.ts). A schedule starts the item's publish workflow before the commit.
 */
export async function createContent(deps: AppDeps, accountId: string, input: CreateInput, actor: Actor): Promise<ContentItem> {
  await checkSentCmsLink(deps, accountId, null, input.cms_link);
  const now = new Date();
  const staged = await stageDraftEntry(deps, { accountId, contentId: null, stored: NEW_ITEM, input, actor, now });
  return deps.db.transaction(async (trx) => {
    const { item, hold } = await insertItem(trx, accountId, input, actor, now, staged);
    await syncHold(deps, accountId, item.id, hold);
    return item;
  });
}

/** An item the service writes on its own (a case-study draft): never linked to a site nor scheduled, so no platform or Temporal call. */
export type ServiceDraftInput = Omit<CreateInput, 'cms_link' | 'scheduled_publish_at' | 'cancel_scheduled_publish'>;

/** Creates a service draft and its version 1 in `trx` (the caller's transaction, so it can record more in it). */
export async function createServiceDraft(
  trx: Knex.Transaction,
  accountId: string,
  input: ServiceDraftInput,
  actor: Actor,
): Promise<ContentItem> {
  return (await insertItem(trx, accountId, input, actor, new Date(), null)).item;
}

async function insertItem(trx: Knex.Transaction, accountId: string, input: CreateInput, actor: Actor, now: Date, staged: string | null) {
  const { columns, hold } = await columnsOfWrite(trx, accountId, NEW_ITEM, input, 'top_level', now, staged);
  if (actor.type === 'user') columns.created_by_user_id = actor.id;
  const id = await insertContent(trx, accountId, columns);
  const item = toContentItem((await findContent(trx, accountId, id))!);
  await insertVersion(trx, accountId, id, item, sentFields(input), actor);
  return { item, hold };
}

/**
 * Applies a PUT or PATCH: absent keys stay, null clears, settings merge. A new cms_link is checked against the site
 * platform before the transaction (and a draft site entry staged when the write arms a schedule); then the row is
 * locked, every other check runs before the write, the new version row is written in the same transaction, and the
 * item's publish workflow is told of a schedule change before the commit (schedule/sync.ts: Temporal unreachable
 * rolls it all back). A write that changes nothing (an autosave echo) is rolled back: no version, no new updated_at.
 */
export async function updateContent(
  deps: AppDeps,
  accountId: string,
  id: string,
  input: UpdateInput,
  precedence: KeywordPrecedence,
  actor: Actor,
): Promise<ContentItem> {
  if (!isUuid(id)) throw contentNotFound();
  const current = await findContent(deps.db, accountId, id);
  if (!current) throw contentNotFound();
  await checkSentCmsLink(deps, accountId, current.cms_link, input.cms_link);
  const now = new Date();
  const staged = await stageDraftEntry(deps, { accountId, contentId: id, stored: current, input, actor, now });
  const trx = await deps.db.transaction();
  try {
    const stored = await lockContent(trx, accountId, id);
    if (!stored) throw contentNotFound();
    const before = toContentItem((await findContent(trx, accountId, id))!);
    const { columns, hold } = await columnsOfWrite(trx, accountId, stored, input, precedence, now, staged);
    await updateContentColumns(trx, accountId, id, columns);
    const after = toContentItem((await findContent(trx, accountId, id))!);
    const changed = changedFields(before, after);
    if (changed.length === 0 && hold.kind === 'keep') {
      await trx.rollback();
      return before;
    }
    if (changed.length) await insertVersion(trx, accountId, id, after, changed, actor);
    await syncHold(deps, accountId, id, hold);
    await trx.commit();
    return after;
  } catch (err) {
    if (!trx.isCompleted()) await trx.rollback();
    throw err;
  }
}

/** Deletes an item with its versions, comments and reviews (they cascade), then cancels a schedule it held. */
export async function deleteContent(deps: AppDeps, accountId: string, id: string): Promise<void> {
  if (!isUuid(id)) throw contentNotFound();
  const held = (await findScheduleRow(deps.db, accountId, id))?.schedule_executes === true;
  if ((await deleteContentRow(deps.db, accountId, id)) === 0) throw contentNotFound();
  if (held) await releaseAfterDelete(deps, accountId, id);
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

/** The columns a service edit may change (text the item's author could have written, never its schedule or link). */
export type ContentEdit = Partial<Pick<ContentColumns, 'body' | 'featured_image_url' | 'featured_image_alt'>>;

/**
 * A change the service makes to an item on its own (an image run placing an image), computed from the item as it is
 * under the row lock: `edit` sees the current item, so an editor's write that committed first is kept and the change
 * is re-applied on top of it. `edit` answers the columns to write, or a refusal that leaves the item as it is. A
 * change writes one version row with `actor`.
 */
export async function editContent<R extends string>(
  db: Knex,
  accountId: string,
  id: string,
  edit: (item: ContentItem) => { columns: ContentEdit } | { refused: R },
  actor: Actor,
): Promise<{ edited: true; version: number } | { edited: false; refused: R | 'unchanged' }> {
  if (!isUuid(id)) throw contentNotFound();
  return db.transaction(async (trx) => {
    if (!(await lockContent(trx, accountId, id))) throw contentNotFound();
    const before = toContentItem((await findContent(trx, accountId, id))!);
    const decided = edit(before);
    if ('refused' in decided) return { edited: false, refused: decided.refused };
    const differs = Object.entries(decided.columns).some(([key, value]) => before[key as keyof ContentEdit] !== value);
    if (!differs) return { edited: false, refused: 'unchanged' };
    await updateContentColumns(trx, accountId, id, decided.columns);
    const after = toContentItem((await findContent(trx, accountId, id))!);
    const changed = changedFields(before, after);
    const version = await insertVersion(trx, accountId, id, after, changed, actor);
    return { edited: true, version: version.version };
  });
}
