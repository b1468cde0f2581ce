import type { ImageSlot } from '../../../workflows/contentImages.contract';
import { bodySections, normalizedHeading, type SectionInfo } from './sections';

export interface Placement {
  slot: ImageSlot;
  /** The planned H2's text: placement finds the heading again by it. */
  heading: string;
  /** The H2's index when planned: preferred among headings of the same text. */
  headingIndex: number;
  url: string;
  alt: string;
  width: number;
  height: number;
}

export type PlacementResult = { ok: true; html: string } | { ok: false; reason: 'heading_gone' | 'image_present' };

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The figure placed under a heading; `data-content-image` names the slot so a later read can recognise it. */
export function imageFigure(p: Pick<Placement, 'slot' | 'url' | 'alt' | 'width' | 'height'>): string {
  const img = `<img src="${escapeAttribute(p.url)}" alt="${escapeAttribute(p.alt)}" width="${p.width}" height="${p.height}" loading="lazy" decoding="async">`;
  return `<figure class="content-image" data-content-image="${escapeAttribute(p.slot)}">${img}</figure>`;
}

/**
 * The planned heading in the body as it is now: the H2 at `headingIndex` when its text still matches, else the
 * same-text H2 nearest to that index (an editor may have added or removed headings since planning).
 */
export function findPlannedHeading(sections: SectionInfo[], heading: string, headingIndex: number): SectionInfo | undefined {
  const wanted = normalizedHeading(heading);
  const same = sections.filter((s) => normalizedHeading(s.heading) === wanted);
  const distance = (s: SectionInfo) => Math.abs(s.index - headingIndex);
  return same.reduce<SectionInfo | undefined>((best, s) => (best === undefined || distance(s) < distance(best) ? s : best), undefined);
}

/**
 * Puts the image right after the heading's `</h2>`; every other character of the body stays as it was. Refuses when
 * the heading is gone or its section has an image by now (an editor's, or this slot's from an earlier attempt).
 */
export function placeUnderHeading(html: string, placement: Placement): PlacementResult {
  const section = findPlannedHeading(bodySections(html), placement.heading, placement.headingIndex);
  if (!section) return { ok: false, reason: 'heading_gone' };
  if (section.has_image) return { ok: false, reason: 'image_present' };
  const at = section.headingEnd;
  return { ok: true, html: `${html.slice(0, at)}${imageFigure(placement)}${html.slice(at)}` };
}

/** Whether the body holds the figure of `slot` (placed by an earlier attempt of the same run). */
export function slotPlaced(html: string, slot: ImageSlot): boolean {
  return html.includes(`data-content-image="${escapeAttribute(slot)}"`);
}
