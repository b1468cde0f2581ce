import { z } from 'zod';
import { MAX_LIMIT, MAX_PAGE } from '../../../http/pagination';
import { MAX_SECTION_IMAGES } from '../../../../workflows/contentImages.contract';
import { MAX_SOURCES } from '../../../../workflows/research.contract';
import { GROUNDING_TEXT_MAX, updateBody } from '../../content/schemas';

// The arguments of the content tools: the agent routes' query, params and bodies as one JSON object (the model sends
// typed JSON, so nothing is read from query strings), checked as strictly as the routes check theirs.

const contentId = z
  .string()
  .min(1)
  .describe('Content item id (uuid). A malformed or unknown id, or one of another account, answers 404 content_not_found.');
const uuid = (what: string) => z.guid({ error: 'must be a uuid' }).optional().describe(`Only items whose ${what} is this uuid.`);

export const listArgs = z.strictObject({
  status: z.string().trim().max(50).optional().describe('Exact status, e.g. `draft` or `published`.'),
  content_type: z.string().trim().max(50).optional().describe('Exact content type, e.g. `blog_post` or `case_study`.'),
  category_id: uuid('category_id'),
  tags: z.array(z.string().max(100)).max(20, { error: 'at most 20 tags' }).optional().describe('An item must carry every one.'),
  search: z.string().trim().max(200).optional().describe('Case-insensitive substring of the title or the target keyword.'),
  avatar_id: uuid('avatar_id'),
  journey_id: uuid('journey_id'),
  before_after_grid_id: uuid('before_after_grid_id'),
  journey_stage: z.string().trim().max(GROUNDING_TEXT_MAX).optional().describe('Journey stage, compared case-insensitively.'),
  published_since: z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'must be an ISO 8601 date or timestamp' })
    .optional()
    .describe('Only items published at or after this instant (a date alone means its 00:00 UTC).'),
  sort: z.enum(['updated', 'published']).optional().describe('`updated` (default) or `published`, newest first.'),
  page: z.int().min(1).max(MAX_PAGE).optional().describe('Page number, from 1 (default 1).'),
  limit: z.int().min(1).max(MAX_LIMIT).optional().describe(`Items per page (default 25, at most ${MAX_LIMIT}).`),
});

export const itemArgs = z.strictObject({ content_id: contentId });

export const updateArgs = z.strictObject({ content_id: contentId, ...updateBody.shape });

/** The read-only keys the update body accepts and ignores (an echo of GET): not offered to the model. */
export const ECHOED_READ_ONLY = Object.entries(updateBody.shape)
  .filter(([, schema]) => schema.description?.startsWith('Read-only'))
  .map(([key]) => key);

export const imagesRunArgs = z.strictObject({
  content_id: contentId,
  replace_featured: z.boolean().optional().describe('Plan a hero even when the item has a featured image, and replace it (default false).'),
  max_sections: z
    .int({ error: 'must be a whole number' })
    .min(0)
    .max(MAX_SECTION_IMAGES)
    .optional()
    .describe(`Section images at most, 0..${MAX_SECTION_IMAGES} (default ${MAX_SECTION_IMAGES}).`),
});

export const researchArgs = z.strictObject({
  content_id: contentId,
  max_sources: z
    .int({ error: 'must be a whole number' })
    .min(1)
    .max(MAX_SOURCES)
    .optional()
    .describe(`Web pages read at most, 1..${MAX_SOURCES}.`),
});
