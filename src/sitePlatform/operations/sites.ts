import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { siteRowCache } from '../connections/resolve';
import { findSite, type SiteRow } from '../connections/store';

export const siteNotFound = () => new ApiError(404, 'site_not_found', "no site with this id among your account's sites");

/**
 * The account's row for a platform site id; another account's site behaves as missing (404). Found rows are kept
 * 60 s beside the credentials and busted with them (connect, reconnect, disconnect, binding changes).
 */
export async function requireOwnSite(db: Knex, accountId: string, siteId: string): Promise<SiteRow> {
  const now = Date.now();
  const cached = siteRowCache.get(accountId, undefined, siteId, now);
  if (cached) return cached;
  const row = await findSite(db, accountId, siteId);
  if (!row) throw siteNotFound();
  siteRowCache.set(accountId, undefined, siteId, row, now);
  return row;
}

interface LocaleLike {
  id?: unknown;
  cmsLocaleId?: unknown;
}

/** Ids (locale and CMS locale) of the site's secondary locales, from the locale object stored on its row. */
export function secondaryLocaleIds(site: Pick<SiteRow, 'locales'> | undefined): string[] {
  const secondary = (site?.locales as { secondary?: unknown } | undefined)?.secondary;
  if (!Array.isArray(secondary)) return [];
  return secondary.flatMap((l: LocaleLike) => [l?.id, l?.cmsLocaleId].filter((v): v is string => typeof v === 'string' && v !== ''));
}
