import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { invalidField } from '../../http/fieldErrors';
import { strictPageQuery } from '../../http/pagination';
import type { RouteDef } from '../../http/route';
import { twinRoutes } from '../twins';
import { ROI_ITEMS_CAP, ROI_ROW_CAP, ROI_SORTS, campaignRoi } from './campaignRoi';
import { ATTRIBUTION_MODEL_DOC } from './docs';

const tags = ['Marketing reports'];

const query = z.strictObject({
  from: z.iso.date({ error: 'must be a date (YYYY-MM-DD)' }).optional().describe('First UTC day of first touches counted (inclusive).'),
  to: z.iso.date({ error: 'must be a date (YYYY-MM-DD)' }).optional().describe('Last UTC day of first touches counted (inclusive).'),
  sort: z.enum(ROI_SORTS).default('attributed_contacts').describe('attributed_contacts (default), deals or won; descending.'),
  limit: strictPageQuery({ defaultLimit: ROI_ROW_CAP, maxLimit: ROI_ROW_CAP }).limit.describe(
    `Assets answered at most, 1..${ROI_ROW_CAP} (default ${ROI_ROW_CAP}); more is \`truncated: true\`.`,
  ),
});

const assetSchema = z
  .object({
    type: z
      .enum(['content', 'campaign'])
      .describe('`content`: a content item (its page); `campaign`: a UTM campaign named by first touches.'),
    content_id: z.string().nullable(),
    title: z.string().nullable(),
    project_id: z.string().nullable(),
    path: z.string().nullable(),
    campaign: z.string().nullable(),
    attributed_contacts: z.int(),
    deals: z.int(),
    won: z.int(),
    revenue: z.array(z.object({ currency: z.string(), amount_minor: z.int() })).describe('Won revenue per currency in minor units.'),
    mixed_currency: z.boolean().describe('The revenue spans currencies: it is listed per currency, never summed.'),
  })
  .meta({ id: 'CampaignRoiAsset' });

const reportSchema = z
  .object({
    from: z.string().nullable(),
    to: z.string().nullable(),
    sort: z.enum(ROI_SORTS),
    data: z.array(assetSchema),
    truncated: z
      .boolean()
      .describe(`More than ${ROI_ROW_CAP} assets (or more than ${ROI_ITEMS_CAP.toLocaleString('en')} linked items) matched.`),
  })
  .meta({ id: 'CampaignRoiReport' });

const DESCRIPTION = [
  'Per marketing asset — each content item whose page (its cms_link project and URL path) is the first touch of',
  'attributed contacts, and each UTM campaign named by first touches — the attributed contacts, their deals, how many',
  `were won, and won revenue per currency in minor units. At most \`limit\` assets (\`truncated\` says when more`,
  'matched); sorted descending by `sort`, then by title or campaign. Writes nothing.',
  ATTRIBUTION_MODEL_DOC,
].join(' ');

/** `GET /api/marketing/reports/campaign-roi` and its agent twin. */
export function campaignRoiRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'get',
      path: '/marketing/reports/campaign-roi',
      operationId: 'getCampaignRoi',
      tags,
      permission: 'marketing.reports:read',
      summary: 'Attributed contacts, deals and revenue per marketing asset.',
      description: DESCRIPTION,
      query,
      responses: { 200: { description: 'The report', schema: reportSchema } },
      errors: [],
    },
    async ({ query, auth, deps }) => {
      if (query.from && query.to && query.from > query.to) throw invalidField('query.to', 'must not be before from');
      return {
        body: await campaignRoi(deps.db, accountOf(auth), {
          from: query.from ?? null,
          to: query.to ?? null,
          sort: query.sort,
          limit: query.limit,
        }),
      };
    },
  );
}
