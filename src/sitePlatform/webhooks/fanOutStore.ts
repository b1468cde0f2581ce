import type { Knex } from '../../db/knex';

/** A project binding naming a site, as the fan-out reads it. */
export interface SiteBinding {
  project_id: string;
  override_mode: 'inherit' | 'override';
}

/**
 * The account's project bindings that name this site and are not `disabled`, oldest first (the fan-out's order, so
 * the cap of 50 keeps the same projects from one event to the next), at most `limit`.
 */
export async function bindingsOfSite(db: Knex, accountId: string, siteId: string, limit: number): Promise<SiteBinding[]> {
  return db('site_platform_project_bindings')
    .where({ account_id: accountId, site_id: siteId })
    .whereNot('override_mode', 'disabled')
    .orderBy([
      { column: 'created_at', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(limit)
    .select('project_id', 'override_mode');
}
