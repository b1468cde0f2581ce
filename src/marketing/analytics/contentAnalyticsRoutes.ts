import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { invalidField } from '../../http/fieldErrors';
import { idParams } from '../../http/ids';
import { strictPageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { errorSpecs } from '../content/errors';
import { URL_SOURCES } from '../content/url';
import { contentAnalytics } from './contentAnalytics';
import { DAILY_ROWS_DOC } from './docs';
import { scorecardSchema } from './scorecardRoutes';
import { WINDOWS } from './window';

export const ANALYTICS_ROWS_DEFAULT_LIMIT = 30;
export const ANALYTICS_ROWS_MAX_LIMIT = 100;

const date = (what: string) => z.iso.date({ error: 'must be a date (YYYY-MM-DD)' }).optional().describe(what);

const query = z.strictObject({
  ...strictPageQuery({ defaultLimit: ANALYTICS_ROWS_DEFAULT_LIMIT, maxLimit: ANALYTICS_ROWS_MAX_LIMIT }),
  from_date: date('First day of the stored rows listed (inclusive, UTC).'),
  to_date: date('Last day of the stored rows listed (inclusive, UTC).'),
  window: z.enum(WINDOWS).default('30d').describe("The live scorecard's window: 7d, 30d (default), 90d, all."),
});

const rowSchema = z.object({
  date: z.string().describe('The closed UTC day (YYYY-MM-DD).'),
  views: z.int().describe("The page's pageviews that day (the collector)."),
  unique_views: z.int().describe("The page's unique visitors that day (the collector)."),
  external_analytics: z
    .record(z.string(), z.unknown())
    .describe(
      'The rolling 30-day scorecard as of that night (the scorecard fields over the 30 closed days ending `date`, `as_of`), with `rank` { keywords, note } as measured or carried forward that night.',
    ),
  computed_at: z.string().describe('When the nightly job stored the row.'),
});

const answerSchema = z
  .object({
    content_summary: z.object({
      id: z.string(),
      title: z.string(),
      status: z.string(),
      content_type: z.string(),
      target_keyword: z.string().nullable(),
      published_at: z.string().nullable(),
      url: z.string().nullable(),
      url_source: z.enum(URL_SOURCES).nullable(),
    }),
    scorecard: scorecardSchema.describe('The live scorecard over `window` (as GET /api/agent/marketing/content/{id}/scorecard).'),
    data: z.array(rowSchema).describe('Stored daily rows, newest first.'),
    pagination: z.object({
      page: z.int(),
      limit: z.int(),
      total: z.int().describe('Stored rows matching from_date/to_date, in all pages.'),
      total_pages: z.int(),
      has_more: z.boolean(),
    }),
  })
  .meta({ id: 'ContentAnalytics' });

/** `GET /api/agent/marketing/content/{id}/analytics` (agent only, as doc1 lists it). */
export function contentAnalyticsRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/agent/marketing/content/{id}/analytics',
        operationId: 'getMarketingContentAnalyticsAgent',
        tags: ['Marketing analytics'],
        auth: { kind: 'agent', permission: 'marketing.content:read' },
        summary: "An item's scorecard plus its stored daily analytics rows.",
        description: `Writes nothing. ${DAILY_ROWS_DOC} A from_date after to_date is 400 naming query.to_date; a page past the last answers an empty \`data\`.`,
        params: idParams,
        query,
        responses: { 200: { description: 'The scorecard and a page of stored rows', schema: answerSchema } },
        errors: [errorSpecs.notFound],
      },
      async ({ params, query, auth, deps }) => {
        if (query.from_date && query.to_date && query.from_date > query.to_date) {
          throw invalidField('query.to_date', 'must not be before from_date');
        }
        return {
          body: await contentAnalytics(deps, accountOf(auth), params.id, {
            page: query.page,
            limit: query.limit,
            window: query.window,
            from_date: query.from_date ?? null,
            to_date: query.to_date ?? null,
          }),
        };
      },
    ),
  ];
}
