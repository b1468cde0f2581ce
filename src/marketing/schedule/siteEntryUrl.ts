import type { Knex } from '../../db/knex';
import { siteDomainOf } from '../../sitePlatform/operations/siteDomain';
import { requireOwnSite } from '../../sitePlatform/operations/sites';

const segment = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? encodeURIComponent(value) : null);

/**
 * The live URL of a platform CMS entry: `https://<site domain>/<collection slug>/<item slug>`, the site domain being
 * its first custom domain, else `<short_name>.webflow.io`. Null when any part is unknown (the site row is gone).
 */
export async function siteEntryUrl(
  db: Knex,
  accountId: string,
  siteId: string,
  collectionSlug: unknown,
  itemSlug: unknown,
): Promise<string | null> {
  const [collection, item] = [segment(collectionSlug), segment(itemSlug)];
  if (!collection || !item) return null;
  const site = await requireOwnSite(db, accountId, siteId).catch(() => undefined);
  const domain = site ? siteDomainOf(site) : null;
  return domain ? `https://${domain}/${collection}/${item}` : null;
}
