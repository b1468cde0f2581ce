import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { RouteDef } from '../../http/route';
import { getContent } from '../content/service';
import { twinRoutes } from '../twins';
import { seoCheck } from './check';
import { SEO_RULE_CATALOGUE } from './catalogue';
import { SEO } from './thresholds';
import * as docs from './docs';

const params = z.strictObject({
  id: z.string().describe('Content item id (uuid). A malformed or unknown id, or one of another account, answers 404.'),
});

const findingSchema = z.object({
  level: z.enum(['error', 'warn']),
  field: z
    .string()
    .describe(
      'The column to fix: title, meta_title, meta_description, slug, target_keyword, body, canonical_url, featured_image_url or featured_image_alt.',
    ),
  code: z.string().describe('Stable snake_case rule code (see the table above).'),
  message: z.string(),
});

const resultSchema = z.object({
  ok: z.boolean().describe('False only when an error exists.'),
  score: z
    .number()
    .int()
    .describe(
      `100 − ${SEO.errorCost} × errors − ${SEO.warningCost} × warnings, exactly: no floor, so an item with many findings scores below 0 (4 errors and 9 warnings give −5).`,
    ),
  findings: z.array(findingSchema),
});

const description = [
  'Runs the pre-publish SEO check on the stored item and writes nothing. The body is read as HTML (scripts, styles and comments ignored).',
  'Keyword matching ignores case, accents, punctuation and spacing and respects word boundaries ("CRM software" matches "crm-software", not "CRM softwares").',
  '',
  'Citations: the one accepted source marker is a footnote — a reference `[^source-id]` in the text, resolved by a definition `[^source-id]: what it names` opening its own block (paragraph, list item). Source ids are 1–128 letters, digits and `: . _ -` (e.g. `grid:<uuid>`, `testimonial:<uuid>`); proof-pack citations use this form.',
  '',
  '| code | level | field | when |',
  '|---|---|---|---|',
  ...SEO_RULE_CATALOGUE.map(({ code, level, field, when }) => `| ${code} | ${level} | ${field} | ${when} |`),
].join('\n');

export function seoRoutes(): RouteDef[] {
  return twinRoutes(
    {
      method: 'get',
      path: '/marketing/content/{id}/seo-check',
      operationId: 'checkContentSeo',
      tags: ['Marketing content'],
      permission: 'marketing.content:read',
      summary: docs.checkContentSeoSummary,
      description,
      params,
      responses: { 200: { description: 'The check result', schema: resultSchema } },
      errors: [
        { status: 404, code: 'content_not_found', description: 'No content item with this id in your account (also for a malformed id).' },
      ],
    },
    async ({ params, auth, deps }) => ({ body: seoCheck(await getContent(deps.db, accountOf(auth), params.id)) }),
  );
}
