import { ApiError } from '../../http/errors';
import type { SitePlatformDeps } from '../../sitePlatform/connections/deps';
import { contentSourceOf } from '../../sitePlatform/operations/contentSource';
import { withTargetLock } from '../../sitePlatform/operations/locks';
import { getContent } from '../content/service';
import { LINK_STEP } from '../content/schedule';
import { stampPublishedToSite, stampPublishFailure } from '../schedule/publishStore';
import { seoCheck } from '../seo/check';
import { publishSiteEntry } from './entry';
import type { PublishToSiteResult } from './resultJson';

export const contentSourceNative = (projectId: string) =>
  new ApiError(
    409,
    'content_source_native',
    `project ${projectId} keeps the service's own CMS as its content source, so nothing is published to the site; switch it with project_cms_provider_set (provider site_platform) first`,
    {
      details: { project_id: projectId, provider: 'native', fix_action: 'project_cms_provider_set' },
    },
  );

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
export async function publishToSite(deps: SitePlatformDeps, req: Request): Promise<PublishToSiteResult> {
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

  const site = await withTargetLock(deps.db, req.accountId, `content_publish:${item.id}`, async () => {
    try {
      const entry = await publishSiteEntry(deps, { accountId: req.accountId, item, link, siteId, actor: req.actor });
      await stampPublishedToSite(deps.db, req.accountId, item.id, {
        cms_link: JSON.stringify({ ...link, item_id: entry.itemId }),
        site_entry_url: entry.url,
      });
      return entry;
    } catch (err) {
      // Only the platform's refusals and failures are publish failures (calendar kind failed); our own 4xx change nothing.
      if (!(err instanceof ApiError) || err.status >= 500 || err.extra.upstreamStatus !== undefined) {
        const failure = err instanceof ApiError ? { code: err.code, message: err.message, status: err.status } : { code: 'internal_error' };
        await stampPublishFailure(deps.db, req.accountId, item.id, failure);
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
