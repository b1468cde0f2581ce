import { z } from 'zod';
import { SEO } from './thresholds';

export const seoFindingSchema = z
  .object({
    level: z.enum(['error', 'warn']),
    field: z
      .string()
      .describe(
        'The column to fix: title, meta_title, meta_description, slug, target_keyword, body, canonical_url, featured_image_url or featured_image_alt.',
      ),
    code: z.string().describe('Stable snake_case rule code (see the table above).'),
    message: z.string(),
  })
  .meta({ id: 'SeoFinding' });

/** The pre-publish SEO check of an item: the check route's answer, and `seo_check` of a publish to the site. */
export const seoCheckSchema = z
  .object({
    ok: z.boolean().describe('False only when an error exists.'),
    score: z
      .number()
      .int()
      .describe(
        `100 − ${SEO.errorCost} × errors − ${SEO.warningCost} × warnings, exactly: no floor, so an item with many findings scores below 0 (4 errors and 9 warnings give −5).`,
      ),
    findings: z.array(seoFindingSchema),
  })
  .meta({ id: 'SeoCheck' });
