import { z } from 'zod';
import { contentItemSchema } from '../content/contentItemJson';
import { seoCheckSchema } from '../seo/checkJson';

/** What a publish to the site answers: the item as stamped, its platform entry, and the SEO check (which never blocks). */
export const publishToSiteResultSchema = z
  .object({
    item: contentItemSchema,
    site_item: z.object({
      project_id: z.string(),
      site_id: z.string(),
      collection_id: z.string(),
      item_id: z.string().describe("The item's id in the platform collection."),
      created: z.boolean().describe('True when this publish created the platform item; false when it updated it.'),
    }),
    warnings: z
      .array(z.object({ code: z.string(), field: z.string(), message: z.string() }))
      .describe('The SEO findings, which never block.'),
    seo_check: seoCheckSchema,
  })
  .meta({ id: 'PublishToSiteResult' });

export type PublishToSiteResult = z.output<typeof publishToSiteResultSchema>;
