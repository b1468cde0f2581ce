import type { Knex } from '../../db/knex';
import { insertCacheInvalidation } from './store';
import type { DeliveryContext, HandlerOutcome } from './types';

/** Every catalogue topic invalidates both tags: a product change shows in collection pages and the reverse. */
export const CATALOG_CACHE_TAGS = ['commerce-products', 'commerce-collections'];

/**
 * products/create, products/update, products/delete and collections/update: doc3 asks for a fire-and-forget
 * cache-tag invalidation to every deployed site, each attempt recorded in `commerce_cache_invalidations`
 * (`target` = the site, `outcome` = what it answered). The service has no record of deployed sites yet, so each
 * delivery records one row with `target` null and `outcome` `no_deployed_sites`: the catalogue change stays
 * visible to operators, and the site fan-out slots in here once deployed sites exist.
 */
export async function handleCatalogChange(db: Knex, ctx: DeliveryContext): Promise<HandlerOutcome> {
  await insertCacheInvalidation(db, ctx.accountId, {
    connectionId: ctx.connectionId, topic: ctx.topic, tags: CATALOG_CACHE_TAGS, target: null, outcome: 'no_deployed_sites',
  });
  return { outcome: 'processed', detail: { sites: 0 } };
}
