import { z } from 'zod';
import type { ContentImagesResult } from '../../../workflows/contentImages.contract';

// The image run's result as the API returns it (201 of POST …/images, `result` of the job), for OpenAPI.
// workflows/contentImages.contract.ts holds the same shape as TypeScript types; the check at the end keeps them equal.

const slot = z
  .custom<'hero' | `section:${number}`>((v) => typeof v === 'string' && /^(hero|section:\d+)$/.test(v))
  .describe('`hero` (the featured image) or `section:<n>`, n the 0-based index of the H2 in the body when the run planned it.');

export const GeneratedAssetSchema = z
  .object({
    slot,
    heading: z.string().nullable().describe('The H2 the image illustrates; null for the hero.'),
    asset_id: z
      .string()
      .nullable()
      .describe(
        'The media library asset (tagged `content_image` and `content:<item id>`). Null: the image is hosted on the site platform and placed, but its library row could not be written (a warning says so).',
      ),
    url: z.string().describe("Where the image is hosted: the site platform's asset CDN, or this service's public media URL."),
    alt: z.string().describe('The alt text written into the body (or featured_image_alt for the hero).'),
    width: z.int(),
    height: z.int(),
    hosted_on: z
      .enum(['site_platform', 'media_store'])
      .describe(
        "`site_platform`: the item's project publishes to the platform CMS, so the image is in the site's asset library; `media_store`: the service's media library.",
      ),
    platform_asset_id: z.string().nullable().describe('The asset id on the site platform (site_platform only).'),
    placed: z
      .boolean()
      .describe(
        'Placed directly under its heading (the hero: set as the featured image). False when an editor changed the item meanwhile (the heading is gone, or an image or featured image was added); a warning says which.',
      ),
    tags: z.array(z.string()).describe('`content_image` and `content:<item id>`.'),
  })
  .meta({ id: 'GeneratedImage' });

const SkippedSchema = z
  .object({
    index: z.int().describe('0-based index of the H2 in the body.'),
    heading: z.string(),
    reason: z
      .enum(['has_image', 'adds_no_information', 'over_limit'])
      .describe(
        '`has_image`: an image already sits below it (left alone); `adds_no_information`: the planner judged an image would add nothing (a generic heading, or too little text); `over_limit`: more sections than `max_sections`.',
      ),
  })
  .meta({ id: 'SkippedImageSection' });

export const ContentImagesResultSchema = z
  .object({
    run_id: z.string().describe('The job id: `content-images:<account>:<item>:<Idempotency-Key>`.'),
    content_id: z.string(),
    planner: z
      .enum(['model', 'heuristic'])
      .describe('`model`: planned by the configured chat model; `heuristic`: no model key (or its answer was unusable, with a warning).'),
    assets: z.array(GeneratedAssetSchema).describe('The images generated, hero first, then sections in body order.'),
    featured_image: z
      .object({ url: z.string(), alt: z.string() })
      .nullable()
      .describe("The hero, now the item's featured image; null when no hero was planned or placed."),
    skipped: z.array(SkippedSchema).describe('Headings the run left without an image, and why.'),
    charged: z.int().describe('Image units this run used from the monthly allowance (one per generated image).'),
    refunded: z.int().describe('Units reserved for renders that failed, given back.'),
    warnings: z
      .array(z.string())
      .describe('Failed renders (refunded), images not placed, a plan the model could not give, a library row not written.'),
  })
  .meta({ id: 'ContentImagesResult' });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Compile-time only: the schema and the workflow's result type describe the same shape.
true satisfies Same<z.infer<typeof ContentImagesResultSchema>, ContentImagesResult>;
