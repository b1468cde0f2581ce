import { z } from 'zod';
import type { Knex } from '../../db/knex';
import { allowanceRemaining } from '../../billing/service';
import { MAX_SECTION_IMAGES, type BodySection, type ImageSlot } from '../../../workflows/contentImages.contract';
import { getContent } from '../content/service';
import { planHeuristic } from './heuristic';
import { bodySections } from './sections';

export interface ImageCandidate {
  slot: ImageSlot;
  /** The H2's text; null for the hero. */
  heading: string | null;
  /** The H2's 0-based index; null for the hero. */
  index: number | null;
}

export interface ImagesPreview {
  content_id: string;
  sections: BodySection[];
  candidates: ImageCandidate[];
  allowance: { remaining: number | null };
}

/** The prompts are not shown, so the preview needs no brand profile. */
const NO_PROFILE = { prompt_block: '', avoid_list: [] };

/**
 * What an image run would do, without a model call or any spend: every H2 of the body and whether an image sits below
 * it, the hero and the sections the heuristic would illustrate (the featured image kept), and the units left this month.
 */
export async function imagesPreview(db: Knex, accountId: string, contentId: string, now: Date): Promise<ImagesPreview> {
  const item = await getContent(db, accountId, contentId);
  const sections = bodySections(item.body ?? '');
  const plan = planHeuristic(item, sections, NO_PROFILE, { replaceFeatured: false, maxSections: MAX_SECTION_IMAGES });
  return {
    content_id: item.id,
    sections: sections.map(({ index, heading, has_image }) => ({ index, heading, has_image })),
    candidates: plan.images.map((image) => ({ slot: image.slot, heading: image.heading, index: image.headingIndex })),
    allowance: { remaining: await allowanceRemaining(db, accountId, now) },
  };
}

export const ImagesPreviewSchema = z
  .object({
    content_id: z.string().describe('The item.'),
    sections: z
      .array(
        z.object({
          index: z.int().describe("The H2's 0-based index among the body's H2s, in document order."),
          heading: z.string().describe("The H2's visible text, whitespace squashed."),
          has_image: z
            .boolean()
            .describe(
              'An <img>, a <picture>, or a <figure> with an <svg> already sits between this H2 and the next (or the end of the body).',
            ),
        }),
      )
      .describe('Every H2 of the body, in order.'),
    candidates: z
      .array(
        z.object({
          slot: z.string().describe('`hero` (the featured image) or `section:<index>`.'),
          heading: z.string().nullable().describe("The H2's text; null for the hero."),
          index: z.int().nullable().describe("The H2's index; null for the hero."),
        }),
      )
      .describe(
        'What a run without a model would illustrate: the hero first when the item has no featured image, then the sections in body order.',
      ),
    allowance: z.object({
      remaining: z.int().nullable().describe('Image units left this UTC month (reserved ones count as spent); null on an unlimited plan.'),
    }),
  })
  .meta({ id: 'ContentImagesPreview' });
