import { z } from 'zod';
import { optionalText, requiredText } from '../../http/fields';
import { contentItemSchema, DEPLOY_TARGETS } from './contentItemJson';
import { distributionPlanInput } from './distributionPlan';

export const GROUNDING_TEXT_MAX = 255;
export const MAX_TAGS = 50;

const uuidRef = (what: string) =>
  z
    .guid({ error: 'must be a uuid' })
    .nullable()
    .describe(
      `Id of a ${what} of your account, or null to clear. Another account's or an unknown id is 400 \`invalid_reference\`; nothing is written.`,
    );

const httpUrl = (max: number) =>
  optionalText(max).refine((v) => v === null || /^https?:\/\/\S+$/i.test(v), { error: 'must be an absolute http(s) URL' });

const code = (what: string) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z][a-z0-9_]{0,49}$/, { error: `${what} is a lowercase word of letters, digits and _ (at most 50)` });

const tag = z.string().trim().min(1, { error: 'a tag must not be empty' }).max(100, { error: 'a tag is at most 100 characters' });
const tagList = z
  .array(tag)
  .max(MAX_TAGS, { error: `at most ${MAX_TAGS} tags` })
  .transform((tags) => [...new Set(tags)])
  .describe(`Replaces the tag list: up to ${MAX_TAGS} tags of 1–100 characters; trimmed, duplicates dropped.`);

export const cmsLinkSchema = z
  .strictObject({
    project_id: z
      .guid({ error: 'must be a uuid' })
      .describe('A website project of your account (`/api/projects`); otherwise 400 `invalid_reference`.'),
    collection_id: requiredText(255).describe(
      'CMS collection the item publishes into; it must exist on the site the project resolves to (400 `invalid_reference`).',
    ),
    item_id: optionalText(255).optional().describe('CMS item, once one exists (null until the first push).'),
  })
  .describe('Link to a site-platform CMS collection; an item must be linked before it can be scheduled.');

/** Settings: any JSON object; the two keys the service understands are checked. */
export const settingsSchema = z
  .looseObject({
    target_keyword: optionalText(GROUNDING_TEXT_MAX)
      .optional()
      .describe('Mirror of target_keyword (see the route for which one wins when both are sent).'),
    distribution_plan: distributionPlanInput.nullable().optional(),
  })
  .describe(
    'Merged into the stored settings key by key, never replaced: keys you leave out keep their values, a key sent as ' +
      'null is removed. You may send only `distribution_plan`; its sibling keys survive.',
  );

/** Writable fields, shared by create, the dashboard PUT and the agent PATCH. Absent = leave (or default on create). */
export const writableFields = {
  slug: optionalText(255).optional(),
  body: optionalText(2_000_000).optional().describe('HTML body.'),
  excerpt: optionalText(2000).optional(),
  status: code('status')
    .optional()
    .describe(
      'Free status word; `draft` (default) and `published` are the ones the service acts on: becoming `published` stamps `published_at` the first time.',
    ),
  content_type: code('content_type').optional().describe('Free type word, default `blog_post`; e.g. `case_study`.'),
  category_id: uuidRef('marketing category').optional(),
  tags: tagList
    .nullable()
    .transform((v) => v ?? [])
    .optional(),
  settings: settingsSchema
    .nullable()
    .transform((v) => v ?? {})
    .optional(),
  avatar_id: uuidRef('customer avatar').optional(),
  journey_id: uuidRef('customer journey map').optional(),
  journey_stage: optionalText(GROUNDING_TEXT_MAX)
    .optional()
    .describe(
      "With a journey (sent or stored): one of its map's stage names, matched ignoring case and stored as the map spells it; " +
        'any other name is 400 `validation_failed` naming the stages. Without a journey: free text. At most 255 characters.',
    ),
  before_after_grid_id: uuidRef('before/after grid').optional(),
  target_keyword: optionalText(GROUNDING_TEXT_MAX).optional().describe('At most 255 characters; mirrored into settings.target_keyword.'),
  meta_title: optionalText(300).optional(),
  meta_description: optionalText(1000).optional(),
  featured_image_url: optionalText(2048).optional(),
  featured_image_alt: optionalText(1000).optional(),
  meta_keywords: optionalText(1000).optional(),
  canonical_url: httpUrl(2048).optional(),
  cms_link: cmsLinkSchema.nullable().optional(),
  deploy_target: z.enum(DEPLOY_TARGETS).optional().describe('Where a publish goes: production (default), staging, dev, none, publish.'),
  scheduled_publish_at: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 timestamp with a time zone' })
    .nullable()
    .optional()
    .describe(
      'Schedule request: must be in the future when it changes; the item must be linked (`cms_link`) or the answer is 409 `not_linked`. Equal to the stored value: ignored (autosave echo). null: unchanged (null never cancels).',
    ),
  cancel_scheduled_publish: z.boolean().optional().describe('true cancels a pending schedule.'),
};

export const createBody = z.strictObject({ title: requiredText(500), ...writableFields });

/** Members the item routes add to the item (agent get, lists). */
const ADDED_KEYS = ['url', 'url_source', 'scheduled_publish'] as const;
type ReadOnlyKey = Exclude<keyof typeof contentItemSchema.shape, keyof typeof createBody.shape> | (typeof ADDED_KEYS)[number];

/**
 * Read-only members an editor echoes back when it sends the whole item (every member of the item no write sets):
 * accepted and ignored, so a form can PUT what it got from GET.
 */
const READ_ONLY_KEYS = [
  ...Object.keys(contentItemSchema.shape).filter((key) => !(key in createBody.shape)),
  ...ADDED_KEYS,
] as ReadOnlyKey[];
const ignored = () => z.unknown().optional().describe('Read-only: ignored when echoed back.');
const echoedReadOnly = Object.fromEntries(READ_ONLY_KEYS.map((key) => [key, ignored()])) as Record<ReadOnlyKey, ReturnType<typeof ignored>>;

export const updateBody = z.strictObject({ title: requiredText(500).optional(), ...writableFields, ...echoedReadOnly });

export type CreateInput = z.output<typeof createBody>;
export type UpdateInput = z.output<typeof updateBody>;

export const idParams = z.strictObject({
  id: z.string().describe('Content item id (uuid). A malformed or unknown id, or one of another account, answers 404 `content_not_found`.'),
});
export const contentIdParams = z.strictObject({
  contentId: z
    .string()
    .describe('Content item id (uuid). A malformed or unknown id, or one of another account, answers 404 `content_not_found`.'),
});
