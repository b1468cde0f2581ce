import type { Knex } from '../../db/knex';
import type { ProjectRow } from '../../projects/service';
import { resolveItemUrl } from '../content/url';
import { publishedItemsOfProject } from './store';
import type { Note, SiteLink } from './types';

/** Published items read per request at most; a project with more is reported in notes. */
export const MAX_ITEMS_READ = 5_000;

export interface ItemLinks {
  links: SiteLink[];
  /** Published items linked to the project that have no URL (the agent get's url rule gives none). */
  withoutUrl: number;
  notes: Note[];
}

/** `content_item` links: the account's published items linked to the project, with the URL the agent get shows. */
export async function contentItemLinks(db: Knex, accountId: string, project: ProjectRow): Promise<ItemLinks> {
  const rows = await publishedItemsOfProject(db, accountId, project.id, MAX_ITEMS_READ + 1);
  const notes: Note[] =
    rows.length > MAX_ITEMS_READ
      ? [{ code: 'content_items_truncated', message: `only the newest ${MAX_ITEMS_READ} published items of the project were read` }]
      : [];
  const links: SiteLink[] = [];
  let withoutUrl = 0;
  for (const row of rows.slice(0, MAX_ITEMS_READ)) {
    const { url } = resolveItemUrl(row, project);
    if (!url) {
      withoutUrl += 1;
      continue;
    }
    links.push({
      id: row.id,
      title: row.title,
      url,
      type: 'post',
      published_at: row.published_at ? row.published_at.toISOString() : null,
      slug: row.slug,
      source: 'content_item',
    });
  }
  return { links, withoutUrl, notes };
}
