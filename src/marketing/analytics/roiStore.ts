import type { Knex } from '../../db/knex';

export interface LinkedItemRow {
  id: string;
  title: string;
  status: string;
  slug: string | null;
  content_type: string;
  canonical_url: string | null;
  site_entry_url: string | null;
  cms_link: { project_id: string } | null;
}

/** The account's items linked to a website project (the ones with a page to attribute to), at most `limit`, newest first. */
export async function linkedItems(db: Knex, accountId: string, limit: number): Promise<LinkedItemRow[]> {
  return db('content_items')
    .where({ account_id: accountId })
    .whereNotNull('cms_link')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select('id', 'title', 'status', 'slug', 'content_type', 'canonical_url', 'site_entry_url', 'cms_link');
}
