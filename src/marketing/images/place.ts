import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import type { PlaceOutcome, PlaceRequest } from '../../../workflows/contentImages.contract';
import { editContent, type ContentItem } from '../content/service';
import { placeUnderHeading } from './placement';

type Refusal = Extract<PlaceOutcome, { placed: false }>['reason'];

function heroEdit(req: PlaceRequest) {
  return (item: ContentItem) => {
    if (item.featured_image_url !== null && item.featured_image_url !== req.rendered.url && !req.replaceFeatured)
      return { refused: 'featured_present' as Refusal };
    return { columns: { featured_image_url: req.rendered.url, featured_image_alt: req.image.alt } };
  };
}

function sectionEdit(req: PlaceRequest) {
  return (item: ContentItem) => {
    const placed = placeUnderHeading(item.body ?? '', {
      slot: req.image.slot,
      heading: req.image.heading ?? '',
      headingIndex: req.image.headingIndex ?? 0,
      url: req.rendered.url,
      alt: req.image.alt,
      width: req.rendered.width,
      height: req.rendered.height,
    });
    return placed.ok ? { columns: { body: placed.html } } : { refused: placed.reason as Refusal };
  };
}

/**
 * Places a hosted image through the content service: the hero as the featured image (an editor's featured image set
 * meanwhile is kept unless the run replaces it), a section image directly under its heading in the body as it is
 * now. Each placement is one version row by the run. A repeated placement of the same image (a retried step) is
 * answered placed without a second version.
 */
export async function placeImage(db: Knex, req: PlaceRequest): Promise<PlaceOutcome> {
  const actor = { type: 'system' as const, id: `workflow:${req.workflowId}` };
  const edit = req.image.slot === 'hero' ? heroEdit(req) : sectionEdit(req);
  try {
    const outcome = await editContent<Refusal>(
      db,
      req.accountId,
      req.contentId,
      (item) => (alreadyPlaced(item, req) ? { columns: {} } : edit(item)),
      actor,
    );
    if (outcome.edited) return { placed: true, version: outcome.version };
    if (outcome.refused === 'unchanged') return { placed: true, version: null };
    return { placed: false, reason: outcome.refused };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'content_not_found') return { placed: false, reason: 'item_gone' };
    throw err;
  }
}

function alreadyPlaced(item: ContentItem, req: PlaceRequest): boolean {
  if (req.image.slot === 'hero') return item.featured_image_url === req.rendered.url;
  const src = req.rendered.url.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return (item.body ?? '').includes(`src="${src}"`);
}
