import type { ContentItem } from '../content/contentItemJson';

/** The item fields the mapping reads (a draft staged before the item is written passes the values they will have). */
export const MAPPED_FIELDS = [
  'title',
  'slug',
  'body',
  'excerpt',
  'meta_description',
  'featured_image_url',
  'featured_image_alt',
] as const satisfies ReadonlyArray<keyof ContentItem>;
export type MappedFields = Pick<ContentItem, (typeof MAPPED_FIELDS)[number]>;

export interface CollectionField {
  slug: string;
  type: string;
  isRequired?: boolean;
}

// Common slugs of the platform's blog templates, in order of preference; otherwise the first field of the right type.
const BODY_SLUGS = ['post-body', 'body', 'content', 'rich-text'];
const SUMMARY_SLUGS = ['post-summary', 'summary', 'excerpt', 'description', 'meta-description'];
const IMAGE_SLUGS = ['main-image', 'featured-image', 'thumbnail-image', 'image', 'hero-image'];

function pick(fields: CollectionField[], type: string, slugs: string[]): CollectionField | undefined {
  const typed = fields.filter((f) => f.type === type);
  return slugs.map((s) => typed.find((f) => f.slug === s)).find(Boolean) ?? typed[0];
}

/**
 * The item's fieldData for a collection: name and slug always, then the body (first RichText field), the summary
 * (a PlainText field named like one, the excerpt or else the meta description) and the featured image, each only
 * when the collection has such a field. `unmapped` lists required fields the item has nothing for.
 */
export function fieldDataFor(
  item: MappedFields,
  fields: CollectionField[],
): { fieldData: Record<string, unknown>; mapped: string[]; unmapped: string[] } {
  const fieldData: Record<string, unknown> = { name: item.title };
  if (item.slug) fieldData.slug = item.slug;
  const body = pick(fields, 'RichText', BODY_SLUGS);
  if (body && item.body) fieldData[body.slug] = item.body;
  const summaryText = item.excerpt ?? item.meta_description;
  const summary = fields.find((f) => f.type === 'PlainText' && SUMMARY_SLUGS.includes(f.slug));
  if (summary && summaryText) fieldData[summary.slug] = summaryText;
  const image = pick(fields, 'Image', IMAGE_SLUGS);
  if (image && item.featured_image_url) fieldData[image.slug] = { url: item.featured_image_url, alt: item.featured_image_alt ?? undefined };
  const unmapped = fields.filter((f) => f.isRequired && !(f.slug in fieldData)).map((f) => f.slug);
  return { fieldData, mapped: Object.keys(fieldData), unmapped };
}
