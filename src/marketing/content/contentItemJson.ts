import { z } from 'zod';
import { iso } from '../../http/fields';
import { keywordOf, readSettings } from './settings';
import type { ContentRowWithNames } from './store';

export const DEPLOY_TARGETS = ['production', 'staging', 'dev', 'none', 'publish'] as const;
export type DeployTarget = (typeof DEPLOY_TARGETS)[number];

const namedRef = z.object({ id: z.string(), name: z.string() }).nullable();

/** The CMS collection (and item, once pushed) a content item publishes into. */
const cmsLinkJson = z.object({ project_id: z.string(), collection_id: z.string(), item_id: z.string().nullable() }).meta({ id: 'CmsLink' });

/** A content item as every route returns it (create, get, list, update, version snapshots). */
export const contentItemSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    slug: z.string().nullable(),
    body: z.string().nullable(),
    excerpt: z.string().nullable(),
    status: z.string(),
    content_type: z.string(),
    category_id: z.string().nullable(),
    tags: z.array(z.string()),
    settings: z.record(z.string(), z.unknown()),
    avatar_id: z.string().nullable(),
    journey_id: z.string().nullable(),
    journey_stage: z.string().nullable(),
    before_after_grid_id: z.string().nullable(),
    target_keyword: z.string().nullable(),
    customer_avatar: namedRef,
    customer_journey: namedRef,
    before_after_grid: namedRef,
    meta_title: z.string().nullable(),
    meta_description: z.string().nullable(),
    featured_image_url: z.string().nullable(),
    featured_image_alt: z.string().nullable(),
    meta_keywords: z.string().nullable(),
    canonical_url: z.string().nullable(),
    cms_link: cmsLinkJson.nullable(),
    deploy_target: z.enum(DEPLOY_TARGETS),
    scheduled_publish_at: z.string().nullable(),
    published_at: z.string().nullable(),
    created_by_user_id: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({
    id: 'ContentItem',
    description:
      'A content item. The five grounding fields are always present (null when unset); customer_avatar, customer_journey and before_after_grid are read-only { id, name } objects.',
  });

export type ContentItem = z.output<typeof contentItemSchema>;

const named = (id: string | null, name: string | null) => (id && name !== null ? { id, name } : null);

export function toContentItem(row: ContentRowWithNames): ContentItem {
  const target_keyword = keywordOf(row);
  const settings = readSettings(row.settings);
  // The mirror always agrees with the column, also for legacy rows whose settings are the only source.
  if (target_keyword !== null) settings.target_keyword = target_keyword;
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    body: row.body,
    excerpt: row.excerpt,
    status: row.status,
    content_type: row.content_type,
    category_id: row.category_id,
    tags: row.tags,
    settings,
    avatar_id: row.avatar_id,
    journey_id: row.journey_id,
    journey_stage: row.journey_stage,
    before_after_grid_id: row.before_after_grid_id,
    target_keyword,
    customer_avatar: named(row.avatar_id, row.avatar_name),
    customer_journey: named(row.journey_id, row.journey_name),
    before_after_grid: named(row.before_after_grid_id, row.grid_name),
    meta_title: row.meta_title,
    meta_description: row.meta_description,
    featured_image_url: row.featured_image_url,
    featured_image_alt: row.featured_image_alt,
    meta_keywords: row.meta_keywords,
    canonical_url: row.canonical_url,
    cms_link: row.cms_link
      ? { project_id: row.cms_link.project_id, collection_id: row.cms_link.collection_id, item_id: row.cms_link.item_id ?? null }
      : null,
    deploy_target: row.deploy_target as DeployTarget,
    scheduled_publish_at: iso(row.scheduled_publish_at),
    published_at: iso(row.published_at),
    created_by_user_id: row.created_by_user_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
