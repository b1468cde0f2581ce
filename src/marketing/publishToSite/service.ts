import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { contentSourceOf } from '../../sitePlatform/operations/contentSource';
import { withTargetLock } from '../../sitePlatform/operations/locks';
import { runOperation } from '../../sitePlatform/operations/runner';
import { getContent, type ContentItem } from '../content/service';
import { LINK_STEP } from '../content/schedule';
import { updateContentColumns } from '../content/store';
import { seoCheck } from '../seo/check';
import type { SeoCheckResult } from '../seo/types';
import { fieldDataFor, type CollectionField } from './fieldMapping';

export interface PublishToSiteResult {
  item: ContentItem;
  site_item: { project_id: string; site_id: string; collection_id: string; item_id: string; created: boolean };
  warnings: Array<{ code: string; field: string; message: string }>;
  seo_check: SeoCheckResult;
}

export const contentSourceNative = (projectId: string) =>
  new ApiError(
    409,
    'content_source_native',
    `project ${projectId} keeps the service's own CMS as its content source, so nothing is published to the site; switch it with project_cms_provider_set (provider site_platform) first`,
    {
      details: { project_id: projectId, provider: 'native', fix_action: 'project_cms_provider_set' },
    },
  );

const requiredFieldsUnmapped = (fields: string[]) =>
  new ApiError(422, 'required_fields_unmapped', `the collection requires fields the item has nothing for: ${fields.join(', ')}`, {
    details: { fields },
  });

interface Request {
  accountId: string;
  contentId: string;
  actor: () => Promise<string>;
}

/**
 * Publishes a content item to its site collection (doc2, What the service does 7; States: "content entry, save,
 * content source is platform CMS → staged in platform; Publish makes it live"): refused until the project's source
 * is the platform CMS; then the item is written to the collection (created the first time, updated after), published,
 * and stamped published. The SEO check never blocks: it comes back as warnings and seo_check.
 */
export async function publishToSite(deps: AppDeps, req: Request): Promise<PublishToSiteResult> {
  const item = await getContent(deps.db, req.accountId, req.contentId);
  const check = seoCheck(item);
  const link = item.cms_link;
  if (!link)
    throw new ApiError(409, 'not_linked', 'the item is not linked to a site collection, so it cannot be published', {
      details: { link_step: LINK_STEP },
    });
  const source = await contentSourceOf(deps.db, req.accountId, link.project_id);
  if (source.provider !== 'site_platform' || !source.site_id) throw contentSourceNative(link.project_id);
  const siteId = source.site_id;

  const run = (method: 'GET' | 'POST', action: string, params: Record<string, unknown>) =>
    runOperation(deps, {
      accountId: req.accountId,
      projectId: link.project_id,
      method,
      action,
      params: { site_id: siteId, collection_id: link.collection_id, ...params },
      actor: req.actor,
    });

  const site = await withTargetLock(deps.db, req.accountId, `content_publish:${item.id}`, async () => {
    try {
      const collection = (await run('GET', 'cms_collection_get', {})).result as { fields?: CollectionField[] };
      const { fieldData, unmapped } = fieldDataFor(item, collection.fields ?? []);
      if (unmapped.length) throw requiredFieldsUnmapped(unmapped);
      const { itemId, created } = await upsertItem(run, link.item_id, fieldData);
      await run('POST', 'cms_item_publish', { itemIds: [itemId], confirm: true });
      await stamp(deps, req.accountId, item, { ...link, item_id: itemId }, null);
      return { itemId, created };
    } catch (err) {
      // Only the platform's refusals and failures are publish failures (calendar kind failed); our own 4xx change nothing.
      if (!(err instanceof ApiError) || err.status >= 500 || err.extra.upstreamStatus !== undefined) {
        await stamp(
          deps,
          req.accountId,
          item,
          null,
          err instanceof ApiError ? { code: err.code, message: err.message, status: err.status } : { code: 'internal_error' },
        );
      }
      throw err;
    }
  });

  return {
    item: await getContent(deps.db, req.accountId, item.id),
    site_item: {
      project_id: link.project_id,
      site_id: siteId,
      collection_id: link.collection_id,
      item_id: site.itemId,
      created: site.created,
    },
    warnings: check.findings.map(({ code, field, message }) => ({ code, field, message })),
    seo_check: check,
  };
}

type Run = (method: 'GET' | 'POST', action: string, params: Record<string, unknown>) => Promise<{ result: unknown }>;

/** Updates the linked platform item; creates it when there is none yet or it was deleted on the platform. */
async function upsertItem(
  run: Run,
  itemId: string | null,
  fieldData: Record<string, unknown>,
): Promise<{ itemId: string; created: boolean }> {
  if (itemId) {
    try {
      await run('POST', 'cms_item_update', { item_id: itemId, fieldData, isDraft: false });
      return { itemId, created: false };
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const created = (await run('POST', 'cms_item_create', { fieldData, isDraft: false })).result as { id?: string };
  if (!created?.id) throw new ApiError(502, 'platform_upstream', 'the site platform created the item without an id');
  return { itemId: created.id, created: true };
}

/** Success: the link gains the platform item id and the item is published. Failure: publish_failed_at and the coded error. */
async function stamp(
  deps: AppDeps,
  accountId: string,
  item: ContentItem,
  link: ContentItem['cms_link'],
  failure: Record<string, unknown> | null,
): Promise<void> {
  await deps.db.transaction(async (trx) => {
    if (failure) {
      await updateContentColumns(trx, accountId, item.id, { publish_failed_at: new Date(), publish_error: JSON.stringify(failure) });
      return;
    }
    await updateContentColumns(trx, accountId, item.id, {
      cms_link: JSON.stringify(link),
      status: 'published',
      published_at: item.published_at ? new Date(item.published_at) : new Date(),
      publish_failed_at: null,
      publish_error: null,
    });
  });
}
