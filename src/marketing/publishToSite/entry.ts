import { ApiError } from '../../http/errors';
import type { SitePlatformDeps } from '../../sitePlatform/connections/deps';
import { runOperation } from '../../sitePlatform/operations/runner';
import type { ContentItem } from '../content/service';
import { recordLinkedEntry } from '../schedule/store';
import { siteEntryUrl } from '../schedule/siteEntryUrl';
import { fieldDataFor, type CollectionField } from './fieldMapping';

export type CmsLink = NonNullable<ContentItem['cms_link']>;

export interface EntryRequest {
  accountId: string;
  item: ContentItem;
  link: CmsLink;
  siteId: string;
  /** The audit actor of every platform write (a user, an agent key, or `workflow:<workflowId>:<runId>`). */
  actor: () => Promise<string>;
}

export interface PublishedEntry {
  itemId: string;
  created: boolean;
  /** The entry's live URL (siteEntryUrl), null when the site's domain is unknown. */
  url: string | null;
}

const requiredFieldsUnmapped = (fields: string[]) =>
  new ApiError(422, 'required_fields_unmapped', `the collection requires fields the item has nothing for: ${fields.join(', ')}`, {
    details: { fields },
  });

type Run = (method: 'GET' | 'POST', action: string, params: Record<string, unknown>) => Promise<{ result: unknown }>;

/**
 * The one publish of an item to its platform collection, shared by publish-to-site and the scheduled publish: the
 * item's current fields are written to its entry (updated, or created when there is none or it was deleted on the
 * platform), live (isDraft false), then published. Every call goes through the operation runner, so the same gates
 * and audit rows apply. The caller holds the item's target lock and stamps the row.
 */
export async function publishSiteEntry(deps: SitePlatformDeps, req: EntryRequest): Promise<PublishedEntry> {
  const run: Run = (method, action, params) =>
    runOperation(deps, {
      accountId: req.accountId,
      projectId: req.link.project_id,
      method,
      action,
      params: { site_id: req.siteId, collection_id: req.link.collection_id, ...params },
      actor: req.actor,
    });
  const collection = (await run('GET', 'cms_collection_get', {})).result as { slug?: unknown; fields?: CollectionField[] };
  const { fieldData, unmapped } = fieldDataFor(req.item, collection.fields ?? []);
  if (unmapped.length) throw requiredFieldsUnmapped(unmapped);
  const entry = await upsertItem(run, req.link.item_id ?? null, fieldData);
  // A failure after this point must not leave a second entry behind on a retry.
  if (entry.created) await recordLinkedEntry(deps.db, req.accountId, req.item.id, req.link, entry.itemId, 'published');
  await run('POST', 'cms_item_publish', { itemIds: [entry.itemId], confirm: true });
  const url = await siteEntryUrl(deps.db, req.accountId, req.siteId, collection.slug, entry.slug ?? fieldData.slug);
  return { itemId: entry.itemId, created: entry.created, url };
}

/** Updates the linked platform item; creates it when there is none yet or it was deleted on the platform. */
async function upsertItem(
  run: Run,
  itemId: string | null,
  fieldData: Record<string, unknown>,
): Promise<{ itemId: string; created: boolean; slug?: unknown }> {
  if (itemId) {
    try {
      const updated = (await run('POST', 'cms_item_update', { item_id: itemId, fieldData, isDraft: false })).result;
      return { itemId, created: false, slug: slugOf(updated) };
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const created = (await run('POST', 'cms_item_create', { fieldData, isDraft: false })).result as { id?: string };
  if (!created?.id) throw new ApiError(502, 'platform_upstream', 'the site platform created the item without an id');
  return { itemId: created.id, created: true, slug: slugOf(created) };
}

const slugOf = (platformItem: unknown) => (platformItem as { fieldData?: { slug?: unknown } } | null)?.fieldData?.slug;
