import type { Knex } from '../../db/knex';

/** A page as the account's site page index keeps it. */
export interface IndexedPage {
  pageId: string;
  title: string | null;
  publishedPath: string | null;
  pageUpdatedAt: Date | null;
}

/** Inserts or refreshes pages of a site in the account's index (a page seen again is live again). */
export async function upsertPages(db: Knex, accountId: string, siteId: string, pages: IndexedPage[]): Promise<void> {
  if (pages.length === 0) return;
  await db('site_platform_page_index')
    .insert(
      pages.map((p) => ({
        account_id: accountId,
        site_id: siteId,
        page_id: p.pageId,
        title: p.title,
        published_path: p.publishedPath,
        page_updated_at: p.pageUpdatedAt,
        deleted_at: null,
        indexed_at: db.fn.now(),
      })),
    )
    .onConflict(['account_id', 'site_id', 'page_id'])
    .merge(['title', 'published_path', 'page_updated_at', 'deleted_at', 'indexed_at']);
}

/** Marks a page of the account's index deleted (a row is written when the page was never indexed). */
export async function markPageDeleted(
  db: Knex,
  accountId: string,
  siteId: string,
  page: Omit<IndexedPage, 'pageUpdatedAt'>,
): Promise<void> {
  await db('site_platform_page_index')
    .insert({
      account_id: accountId,
      site_id: siteId,
      page_id: page.pageId,
      title: page.title,
      published_path: page.publishedPath,
      deleted_at: db.fn.now(),
      indexed_at: db.fn.now(),
    })
    .onConflict(['account_id', 'site_id', 'page_id'])
    .merge({ deleted_at: db.fn.now(), indexed_at: db.fn.now() });
}

/** After a full listing: the site's indexed pages not in it are marked deleted. Answers how many. */
export async function markUnlistedDeleted(db: Knex, accountId: string, siteId: string, listedPageIds: string[]): Promise<number> {
  return db('site_platform_page_index')
    .where({ account_id: accountId, site_id: siteId })
    .whereNull('deleted_at')
    .whereNotIn('page_id', listedPageIds)
    .update({ deleted_at: db.fn.now(), indexed_at: db.fn.now() });
}

/** The account's live indexed pages of a site (tests and site links read them). */
export async function listIndexedPages(db: Knex, accountId: string, siteId: string): Promise<Array<IndexedPage & { deleted: boolean }>> {
  const rows = await db('site_platform_page_index').where({ account_id: accountId, site_id: siteId }).orderBy('page_id');
  return rows.map((r) => ({
    pageId: r.page_id,
    title: r.title,
    publishedPath: r.published_path,
    pageUpdatedAt: r.page_updated_at,
    deleted: r.deleted_at !== null,
  }));
}
