import type { Knex } from '../../../db/knex';
import { contentCountQuery, contentPageQuery, type ContentFilter, type ContentSort, type ContentWindow } from '../../content/listStore';
import type { ContentRowWithNames } from '../../content/store';

/** A page of the account's items linked (cms_link) to one project, and their total: the list of a pinned chat. */
export async function pinnedContentPage(
  db: Knex,
  accountId: string,
  projectId: string,
  filter: ContentFilter,
  sort: ContentSort,
  page: ContentWindow,
): Promise<{ rows: ContentRowWithNames[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    contentPageQuery(db, accountId, filter, sort, page).where('c.cms_project_id', projectId) as Promise<ContentRowWithNames[]>,
    contentCountQuery(db, accountId, filter).where('c.cms_project_id', projectId) as unknown as Promise<{ count: number }[]>,
  ]);
  return { rows, total: Number(count) };
}
