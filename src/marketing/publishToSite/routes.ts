import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { route, type RouteDef } from '../../http/route';
import { actorOf } from '../../sitePlatform/operations/actor';
import { errorSpecs } from '../content/errors';
import { publishToSiteResultSchema } from './resultJson';
import { publishToSite } from './service';
import * as docs from './docs';

const params = z.strictObject({ id: z.string().describe('Content item id (uuid). A malformed, unknown or other-account id answers 404.') });

const description = [
  'Publishes the item to the site platform collection it is linked to (`cms_link`): the item is written to the collection',
  '(created the first time, updated after; the platform item id is stored in `cms_link.item_id`), published live, and the',
  "item is stamped `status: published`. Refused with 409 `content_source_native` until the project's content source is",
  "the platform CMS (`project_cms_provider_set`). Fields are mapped by the collection's schema: name ← title, slug, the",
  'first RichText field ← body, a summary-like PlainText field ← excerpt (or meta description), the first Image field ←',
  'featured image. The pre-publish SEO check never blocks: its findings come back as `warnings` and the whole result as',
  '`seo_check`. A platform failure stamps `publish_failed_at` and `publish_error` on the item and answers the coded error.',
].join(' ');

export function publishToSiteRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'post',
        path: '/api/agent/marketing/content/{id}/publish-to-site',
        operationId: 'publishContentToSite',
        tags: ['Marketing content'],
        auth: { kind: 'agent', permission: 'marketing.content:update' },
        summary: docs.publishContentToSiteSummary,
        description,
        params,
        responses: {
          200: { description: 'Published: the item, its platform entry, and the SEO check', schema: publishToSiteResultSchema },
        },
        errors: [
          errorSpecs.notFound,
          { status: 409, code: 'not_linked', description: docs.notLinkedError },
          { status: 409, code: 'content_source_native', description: docs.contentSourceNativeError },
          { status: 409, code: 'write_locked', description: docs.writeLockedError },
          {
            status: 412,
            code: 'site_platform_not_connected | missing_scopes',
            description: 'No connection resolves for the project, or the grant lacks cms:write.',
          },
          {
            status: 422,
            code: 'required_fields_unmapped | platform_validation',
            description: 'The collection requires fields the item has nothing for, or the platform refused the item.',
          },
          { status: 429, code: 'rate_limited', description: docs.rateLimitedError },
          {
            status: 502,
            code: 'platform_upstream',
            description: 'Platform 5xx or network failure (the item is stamped publish_failed_at).',
          },
          {
            status: 504,
            code: 'platform_timeout',
            description: 'No platform answer inside the timeout (the item is stamped publish_failed_at).',
          },
        ],
      },
      async ({ params, auth, deps }) => ({
        status: 200,
        body: await publishToSite(deps, {
          accountId: accountOf(auth),
          contentId: params.id,
          actor: () => actorOf(deps.db, auth, undefined),
        }),
      }),
    ),
  ];
}
