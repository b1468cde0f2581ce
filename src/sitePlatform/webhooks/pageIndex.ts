import type { Knex } from '../../db/knex';
import { listIndexedPages, type IndexedPage } from './pageIndexStore';

export type { IndexedPage } from './pageIndexStore';

/** The live (not deleted) pages of a site in the account's page index, kept by the page webhooks and site publishes. */
export async function livePagesOfIndex(db: Knex, accountId: string, siteId: string): Promise<IndexedPage[]> {
  return (await listIndexedPages(db, accountId, siteId)).filter((p) => !p.deleted).map(({ deleted: _deleted, ...page }) => page);
}
