import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { DEFAULT_LIMIT, listEnvelopeSchema, MAX_LIMIT, pageQuery } from '../../http/pagination';
import { route, type RouteDef } from '../../http/route';
import { listContent } from './list';
import { URL_RULE } from './url';
import { contentItemSchema } from './contentItemJson';
import { GROUNDING_TEXT_MAX } from './schemas';
import * as docs from './docs';

const tags = ['Marketing content'];

/** An empty query value (`?status=`) is read as no filter. */
const blankAsAbsent = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const uuidFilter = (what: string) =>
  blankAsAbsent(z.guid({ error: 'must be a uuid' })).describe(`Only items whose ${what} is exactly this uuid; a non-uuid is 400.`);

const tagFilter = z
  .union([z.string(), z.array(z.string())])
  .transform((v) =>
    (Array.isArray(v) ? v : [v])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().max(100)).max(20, { error: 'at most 20 tags' }));

const baseFilters = {
  status: blankAsAbsent(z.string().trim().max(50)).describe('Exact status, e.g. `draft` or `published`.'),
  content_type: blankAsAbsent(z.string().trim().max(50)).describe('Exact content type, e.g. `blog_post` or `case_study`.'),
  category_id: uuidFilter('category_id'),
  tags: tagFilter.optional().describe('Comma-separated (or repeated) tags; an item must carry every one of them.'),
  search: blankAsAbsent(z.string().trim().max(200)).describe('Case-insensitive substring of the title or the target keyword.'),
  ...pageQuery,
};

const dashboardQuery = z.strictObject(baseFilters);

const agentQuery = z.strictObject({
  ...baseFilters,
  avatar_id: uuidFilter('avatar_id'),
  journey_id: uuidFilter('journey_id'),
  before_after_grid_id: uuidFilter('before_after_grid_id'),
  journey_stage: blankAsAbsent(z.string().trim().max(GROUNDING_TEXT_MAX)).describe(
    'Journey stage, compared case-insensitively but otherwise exactly.',
  ),
  published_since: blankAsAbsent(
    z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'must be an ISO 8601 date or timestamp' }),
  )
    .transform((v) => (v === undefined ? undefined : new Date(v)))
    .describe('Only items with published_at at or after this instant (a date alone means its 00:00 UTC); invalid is 400.'),
  sort: z
    .enum(['updated', 'published'])
    .default('updated')
    .describe('`updated` (default): updated_at descending; `published`: published_at descending, never-published items last.'),
});

const listedItem = contentItemSchema
  .extend({ url: z.string().nullable().describe(`Public URL on the site. ${URL_RULE}`) })
  .meta({ id: 'ListedContentItem' });
const listResponse = listEnvelopeSchema(listedItem, 'data', 'ContentItemList');

const description =
  `Answers \`{ data, total, page, limit }\`; \`total\` counts every match. Filters combine (AND). ` +
  `\`page\` defaults to 1, \`limit\` to ${DEFAULT_LIMIT} (maximum ${MAX_LIMIT}). Every item carries the five grounding fields, ` +
  'the three { id, name } objects and `url`.';

export function contentListRoutes(): RouteDef[] {
  return [
    route(
      {
        method: 'get',
        path: '/api/marketing/content',
        operationId: 'listMarketingContent',
        tags,
        auth: { kind: 'session' },
        summary: 'List content items, most recently updated first.',
        description,
        query: dashboardQuery,
        responses: { 200: { description: 'A page of items', schema: listResponse } },
      },
      async ({ query, auth, deps }) => {
        const { page, limit, ...filter } = query;
        return { body: await listContent(deps.db, accountOf(auth), filter, 'updated', { page, limit }) };
      },
    ),
    route(
      {
        method: 'get',
        path: '/api/agent/marketing/content',
        operationId: 'listMarketingContentAgent',
        tags,
        auth: { kind: 'agent', permission: 'marketing.content:read' },
        summary: docs.listMarketingContentAgentSummary,
        description,
        query: agentQuery,
        responses: { 200: { description: 'A page of items', schema: listResponse } },
      },
      async ({ query, auth, deps }) => {
        const { page, limit, sort, ...filter } = query;
        return { body: await listContent(deps.db, accountOf(auth), filter, sort, { page, limit }) };
      },
    ),
  ];
}
