import type { Knex } from '../../db/knex';
import { listEnvelope, offsetOf, type Page } from '../../http/pagination';
import { contentPage, type ContentFilter, type ContentSort } from './listStore';
import { toContentItem, type ContentItem } from './contentItemJson';
import { urlsOf, type ItemUrl } from './url';

export type ListedItem = ContentItem & Pick<ItemUrl, 'url'>;

/** A page of items with the filter's total; each item carries `url` (the list adds it, per the spec). */
export async function listContent(db: Knex, accountId: string, filter: ContentFilter, sort: ContentSort, page: Page) {
  const { rows, total } = await contentPage(db, accountId, filter, sort, { limit: page.limit, offset: offsetOf(page) });
  const urls = await urlsOf(db, accountId, rows);
  const data: ListedItem[] = rows.map((row, i) => ({ ...toContentItem(row), url: urls[i].url }));
  return listEnvelope(data, total, page);
}
