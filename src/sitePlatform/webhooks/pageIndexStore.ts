import type { Knex } from '../../db/knex';

/** A page as the account's site page index keeps it. */
export interface IndexedPage {
  pageId: string;
  title: string | null;
  publishedPath: string | null;
  pageUpdatedAt: Date | null;
}

/**
 * Inserts or refreshes pages of a site in the account's index. A page seen in a full listing is live again. A page seen
 * in a single-page event (`fromEvent`) stays deleted when its deletion is not older than the event's page time:
 * deliveries arrive in any order, so a late `page_created` must not bring back a page whose `page_deleted` came first.
 */
export async function upsertPages(db: Knex, accountId: string, siteId: string, pages: IndexedPage[], fromEvent = false): Promise<void> {
  if (pages.length === 0) return;
  const deletedAt = fromEvent
    ? db.raw(
        `case when site_platform_page_index.deleted_at is not null
           and (excluded.page_updated_at is null or excluded.page_updated_at <= site_platform_page_index.deleted_at)
         then site_platform_page_index.deleted_at end`,
      )
    : null;
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
    .merge({
      title: db.raw('excluded.title'),
      published_path: db.raw('excluded.published_path'),
      page_updated_at: db.raw('excluded.page_updated_at'),
      deleted_at: deletedAt,
      indexed_at: db.fn.now(),
    });
}

/**
 * Marks a page of the account's index deleted at `deletedAt` (the platform's deletion time, else now); a row is written
 * when the page was never indexed.
 */
export async function markPageDeleted(
  db: Knex,
  accountId: string,
  siteId: string,
  page: Omit<IndexedPage, 'pageUpdatedAt'>,
  deletedAt: Date | null = null,
): Promise<void> {
  const at = deletedAt ?? db.fn.now();
  await db('site_platform_page_index')
    .insert({
      account_id: accountId,
      site_id: siteId,
      page_id: page.pageId,
      title: page.title,
      published_path: page.publishedPath,
      deleted_at: at,
      indexed_at: db.fn.now(),
    })
    .onConflict(['account_id', 'site_id', 'page_id'])
    .merge({ deleted_at: at, indexed_at: db.fn.now() });
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
