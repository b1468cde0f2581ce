import { agentKeyName } from '../../auth/service';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { contentSourceOf } from '../../sitePlatform/operations/contentSource';
import { withTargetLock } from '../../sitePlatform/operations/locks';
import { runOperation } from '../../sitePlatform/operations/runner';
import type { Actor } from '../actor';
import { fieldDataFor, MAPPED_FIELDS, type CollectionField, type MappedFields } from '../publishToSite/fieldMapping';
import { holdOfWrite, type HoldFacts, type HoldInput } from './hold';
import { findScheduleLink, recordLinkedEntry } from './store';

export interface StageRequest {
  accountId: string;
  /** The item, or null on create (the entry is staged before the row exists). */
  contentId: string | null;
  /** The row as read before the write's transaction (a new item's defaults on create). */
  stored: HoldFacts & Partial<MappedFields>;
  input: HoldInput & Partial<MappedFields>;
  actor: Actor;
  now: Date;
}

/**
 * A write that arms a hold on a linked item with no site entry, on a project whose content source is the platform
 * CMS, first creates the entry as a draft (staged, not live: only the workflow publishes it at the time) and stamps
 * its id on the link at once. Runs before the write's transaction, like the cms_link check: no row is locked while
 * the platform answers. Answers the staged entry's id, or null when nothing was staged. Platform failures keep their
 * codes and the write never runs.
 */
export async function stageDraftEntry(deps: AppDeps, req: StageRequest): Promise<string | null> {
  const { change } = holdOfWrite(req.stored, req.input, req.now);
  if (change.kind !== 'arm' || change.itemId) return null;
  const source = await contentSourceOf(deps.db, req.accountId, change.projectId);
  if (source.provider !== 'site_platform') return null;
  const link = { project_id: change.projectId, collection_id: change.collectionId };

  const create = async () => {
    // A concurrent write may have staged (or published) the entry since the read this request started from.
    const current = req.contentId ? await findScheduleLink(deps.db, req.accountId, req.contentId) : undefined;
    if (current?.item_id && current.project_id === link.project_id && current.collection_id === link.collection_id) return current.item_id;
    const itemId = await createDraft(deps, req, link, source.site_id);
    if (req.contentId) await recordLinkedEntry(deps.db, req.accountId, req.contentId, link, itemId, 'staged');
    return itemId;
  };
  // The same lock publish-to-site takes, so a staged draft and a publish of the item never both create an entry.
  return req.contentId ? withTargetLock(deps.db, req.accountId, `content_publish:${req.contentId}`, create) : create();
}

async function createDraft(
  deps: AppDeps,
  req: StageRequest,
  link: { project_id: string; collection_id: string },
  siteId: string | null,
): Promise<string> {
  const run = (method: 'GET' | 'POST', action: string, params: Record<string, unknown>) =>
    runOperation(deps, {
      accountId: req.accountId,
      projectId: link.project_id,
      method,
      action,
      params: { ...(siteId ? { site_id: siteId } : {}), collection_id: link.collection_id, ...params },
      actor: () => auditActor(deps, req.accountId, req.actor),
    });
  const collection = (await run('GET', 'cms_collection_get', {})).result as { fields?: CollectionField[] };
  const { fieldData, unmapped } = fieldDataFor(draftFields(req), collection.fields ?? []);
  if (unmapped.length) {
    throw new ApiError(422, 'required_fields_unmapped', `the collection requires fields the item has nothing for: ${unmapped.join(', ')}`, {
      details: { fields: unmapped },
    });
  }
  const created = (await run('POST', 'cms_item_create', { fieldData, isDraft: true })).result as { id?: string };
  if (!created?.id) throw new ApiError(502, 'platform_upstream', 'the site platform created the draft entry without an id');
  return created.id;
}

/** The item's mapped fields as the write will leave them: what it sends, else what is stored. */
function draftFields(req: StageRequest): MappedFields {
  const fields: Record<string, unknown> = {};
  for (const key of MAPPED_FIELDS) fields[key] = req.input[key] !== undefined ? req.input[key] : (req.stored[key] ?? null);
  return fields as unknown as MappedFields;
}

/** The audit actor of the operation runner (`user:<id>`, `agent:<key name>`), as the operation routes write it. */
async function auditActor(deps: AppDeps, accountId: string, actor: Actor): Promise<string> {
  if (actor.type === 'user' && actor.id) return `user:${actor.id}`;
  if (actor.type === 'agent' && actor.id) return `agent:${(await agentKeyName(deps.db, accountId, actor.id)) ?? actor.id}`;
  return 'agent:service';
}
