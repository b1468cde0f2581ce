import type { Knex } from '../../db/knex';

/** The live URL of the item's platform CMS entry (stamped at each publish to the platform), null while none. */
export async function siteEntryUrlOf(db: Knex, accountId: string, id: string): Promise<string | null> {
  const row: { site_entry_url: string | null } | undefined = await db('content_items')
    .where({ account_id: accountId, id })
    .first('site_entry_url');
  return row?.site_entry_url ?? null;
}
