import { readDistributionPlan } from './distributionPlan';
import type { DeployTarget } from './schemas';
import type { ContentRowWithNames } from './store';

export interface NamedRef {
  id: string;
  name: string;
}

export interface CmsLink {
  project_id: string;
  collection_id: string;
  item_id: string | null;
}

/** A content item as every route returns it (create, get, list, update, version snapshots). */
export interface ContentItem {
  id: string;
  title: string;
  slug: string | null;
  body: string | null;
  excerpt: string | null;
  status: string;
  content_type: string;
  category_id: string | null;
  tags: string[];
  settings: Record<string, unknown>;
  avatar_id: string | null;
  journey_id: string | null;
  journey_stage: string | null;
  before_after_grid_id: string | null;
  target_keyword: string | null;
  customer_avatar: NamedRef | null;
  customer_journey: NamedRef | null;
  before_after_grid: NamedRef | null;
  meta_title: string | null;
  meta_description: string | null;
  featured_image_url: string | null;
  featured_image_alt: string | null;
  meta_keywords: string | null;
  canonical_url: string | null;
  cms_link: CmsLink | null;
  deploy_target: DeployTarget;
  scheduled_publish_at: string | null;
  published_at: string | null;
  created_by_user_id: string | null;
  created_at: string;
  updated_at: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const named = (id: string | null, name: string | null): NamedRef | null => (id && name !== null ? { id, name } : null);

/**
 * The keyword of a row: its own column, or for rows written before 2026-09-12 (column null) the value they kept in
 * settings.target_keyword.
 */
export function keywordOf(row: { target_keyword: string | null; settings: Record<string, unknown> }): string | null {
  if (row.target_keyword !== null) return row.target_keyword;
  const legacy = row.settings?.target_keyword;
  return typeof legacy === 'string' && legacy !== '' ? legacy : null;
}

/** Settings as clients read them: a malformed distribution plan is read as no plan (the key is left out). */
export function readSettings(stored: Record<string, unknown>): Record<string, unknown> {
  const settings = { ...(stored ?? {}) };
  if ('distribution_plan' in settings) {
    const plan = readDistributionPlan(settings.distribution_plan);
    if (plan) settings.distribution_plan = plan;
    else delete settings.distribution_plan;
  }
  return settings;
}

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
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}
