import type { Knex } from '../../db/knex';

export interface PublishedItemRow {
  id: string;
  title: string;
  slug: string | null;
  status: string;
  content_type: string;
  canonical_url: string | null;
  site_entry_url: string | null;
  published_at: Date | null;
}

/** The account's published items linked to the project, newest first, at most `max` (the columns the URL rule reads). */
export async function publishedItemsOfProject(db: Knex, accountId: string, projectId: string, max: number): Promise<PublishedItemRow[]> {
  return db('content_items')
    .where({ account_id: accountId, cms_project_id: projectId, status: 'published' })
    .orderByRaw('published_at desc nulls last, id desc')
    .limit(max)
    .select('id', 'title', 'slug', 'status', 'content_type', 'canonical_url', 'site_entry_url', 'published_at');
}
