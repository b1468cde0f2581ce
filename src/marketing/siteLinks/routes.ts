import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { strictPageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { SITE_LINKS_MAX, siteLinks } from './service';
import * as docs from './docs';

const query = z.strictObject({
  project_id: z
    .preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().trim().optional())
    .describe('The website project (uuid) of your account; required.'),
  limit: strictPageQuery({ defaultLimit: SITE_LINKS_MAX, maxLimit: SITE_LINKS_MAX }).limit,
});

const siteLink = z
  .object({
    id: z.string().describe('Content item id, platform page id, or the URL for crawled pages.'),
    title: z.string().nullable(),
    url: z.string(),
    type: z.enum(['post', 'page']),
    published_at: z.string().nullable(),
    slug: z.string().nullable(),
    source: z.enum(['content_item', 'page_list', 'crawl']),
  })
  .meta({ id: 'SiteLink' });

const siteLinksSchema = z
  .object({
    data: z.array(siteLink),
    total: z.number().int(),
    capped: z.boolean(),
    project: z.object({ id: z.string(), name: z.string(), host: z.string().nullable() }),
    posts: z.object({ listed: z.number().int(), without_url: z.number().int() }),
    pages: z.object({ listed: z.number().int() }),
    notes: z.array(z.object({ code: z.string(), message: z.string() })),
  })
  .meta({ id: 'SiteLinks' });

export function siteLinksRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/agent/marketing/content/site-links',
        operationId: 'listSiteLinksAgent',
        tags: ['Marketing content'],
        auth: { kind: 'agent', permission: 'marketing.content:read' },
        summary: docs.siteLinksSummary,
        description: docs.siteLinksDescription,
        query,
        responses: { 200: { description: 'The links of the project', schema: siteLinksSchema } },
        errors: [
          { status: 400, code: 'project_id_required', description: 'project_id is absent or empty.' },
          {
            status: 400,
            code: 'validation_failed',
            description: 'limit is not a whole number from 1 to 500, or an unknown query parameter was sent.',
          },
          {
            status: 404,
            code: 'project_not_found',
            description: "project_id is not a website project of your account (unknown, another account's, or not a uuid).",
          },
        ],
      },
      async ({ query: q, auth, deps }) => ({ body: await siteLinks(deps, accountOf(auth), q.project_id, q.limit) }),
    ),
  ];
}
