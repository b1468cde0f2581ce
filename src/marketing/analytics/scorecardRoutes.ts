import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import { idParams } from '../../http/ids';
import type { RouteDef } from '../../http/route';
import { errorSpecs } from '../content/errors';
import { twinRoutes } from '../twins';
import { ATTRIBUTION_MODEL_DOC } from './docs';
import { scorecard } from './scorecard';
import { WINDOWS } from './window';

const tags = ['Marketing analytics'];

const query = z.strictObject({
  window: z.enum(WINDOWS).default('30d').describe('7d, 30d (default), 90d: closed UTC days ending yesterday; all: all time.'),
});

const count = z.int().nullable();
export const scorecardSchema = z
  .object({
    content_id: z.string(),
    window: z.enum(WINDOWS),
    page: z
      .object({ project_id: z.string(), path: z.string(), url: z.string() })
      .nullable()
      .describe("The page measured: the item's cms_link project and the path of its URL (see url_source). Null: every figure is null."),
    views: count.describe('Pageviews of the page (the collector); null when degraded.'),
    visitors: count.describe('Unique visitors (the collector); null when degraded.'),
    form_submits: count.describe("Form submits seen in the browser on the page (the collector's form goal); null when degraded."),
    leads: count.describe('Forms-ledger rows of the project on the page, without spam, duplicate and deleted rows.'),
    contacts: count.describe('Distinct CRM contacts those rows resolve to.'),
    attributed_contacts: count.describe('Contacts whose first touch is this page within the window (the attribution model).'),
    deals: z
      .object({ count: z.int(), won: z.int(), revenue: z.array(z.object({ currency: z.string(), amount_minor: z.int() })) })
      .nullable()
      .describe(
        'Deals of the attributed contacts created at or after their first touch; won revenue per currency, in minor units, never summed across currencies.',
      ),
    lead_rate: z.number().nullable().describe('leads ÷ visitors (4 decimals); null without visitors.'),
    rank: z.object({ keywords: z.array(z.object({ keyword: z.string(), position: z.int().nullable(), measured_at: z.string() })) }),
    social: z.null().describe('Null until a social source exists (a note says so).'),
    last_stored: z
      .object({ date: z.string(), computed_at: z.string() })
      .nullable()
      .describe('The newest stored daily row; null before the nightly job stored one.'),
    degraded: z.boolean(),
    notes: z.array(z.string()),
  })
  .meta({ id: 'ContentScorecard' });

/** `GET /api/marketing/content/{id}/scorecard` (and the agent twin). */
export function scorecardRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'get',
      path: '/marketing/content/{id}/scorecard',
      operationId: 'getMarketingContentScorecard',
      tags,
      permission: 'marketing.content:read',
      summary: "An item's performance scorecard over a window.",
      description: `Writes nothing. The collector unreachable or not configured, or a project without a collector site id: \`degraded\` true, the collector's figures null, the ledger's still answered. ${ATTRIBUTION_MODEL_DOC}`,
      params: idParams,
      query,
      responses: { 200: { description: 'The scorecard', schema: scorecardSchema } },
      errors: [errorSpecs.notFound],
    },
    async ({ params, query, auth, deps }) => ({ body: await scorecard(deps, accountOf(auth), params.id, query.window) }),
  );
}
