import { z } from 'zod';
import { accountOf } from '../../auth/authenticate';
import type { RouteDef } from '../../http/route';
import { getContent } from '../content/service';
import { twinRoutes } from '../twins';
import { seoCheck } from './check';
import { seoCheckSchema } from './checkJson';
import { SEO_RULE_CATALOGUE } from './catalogue';
import * as docs from './docs';

const params = z.strictObject({
  id: z.string().describe('Content item id (uuid). A malformed or unknown id, or one of another account, answers 404.'),
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
      responses: { 200: { description: 'The check result', schema: seoCheckSchema } },
      errors: [
        { status: 404, code: 'content_not_found', description: 'No content item with this id in your account (also for a malformed id).' },
      ],
    },
    async ({ params, auth, deps }) => ({ body: seoCheck(await getContent(deps.db, accountOf(auth), params.id)) }),
  );
}
