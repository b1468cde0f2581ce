import type { Knex } from '../../db/knex';
import { ApiError } from '../../http/errors';
import { revalidateDeployment, serviceHostedDeployments, type DeploymentRow } from '../../projects/deployments/service';
import { resolveProjectConnection } from '../bindings/service';
import { insertCacheInvalidation } from './store';
import type { DeliveryContext, HandlerOutcome, TopicEnv } from './types';

/** Every catalogue topic invalidates both tags: a product change shows in collection pages and the reverse. */
export const CATALOG_CACHE_TAGS = ['commerce-products', 'commerce-collections'];

/**
 * products/create, products/update, products/delete and collections/update: doc3's fire-and-forget cache-tag
 * invalidation to every deployed site, i.e. each deployment of the account's service-hosted projects whose commerce
 * settings resolve to this shop. The posts go out in parallel, one attempt each with a 5 s deadline, so a delivery
 * costs at most about 5 s and a drain pass, which ends at the first delivery past its budget, stays far inside its
 * activity's timeout. Each post is recorded in
 * `commerce_cache_invalidations` (`target` = the deployment id) with what it came to. A failed post never fails the
 * delivery. A shop with no deployed site records one row with `target` null and `outcome` `no_deployed_sites`.
 */
export async function handleCatalogChange(db: Knex, ctx: DeliveryContext, env: TopicEnv): Promise<HandlerOutcome> {
  const record = (target: string | null, outcome: string) =>
    insertCacheInvalidation(db, ctx.accountId, {
      connectionId: ctx.connectionId,
      topic: ctx.topic,
      tags: CATALOG_CACHE_TAGS,
      target,
      outcome,
    });
  const sites = await deployedSitesOfShop(db, ctx.accountId, ctx.connectionId);
  if (sites.length === 0) {
    await record(null, 'no_deployed_sites');
    return { outcome: 'processed', detail: { sites: 0 } };
  }
  const outcomes = await Promise.all(
    sites.map(async (site) => {
      const outcome = await revalidateDeployment({ db, config: env.config }, site, CATALOG_CACHE_TAGS);
      await record(site.id, outcome);
      return outcome;
    }),
  );
  return { outcome: 'processed', detail: { sites: sites.length, revalidated: outcomes.filter((o) => o === 'revalidated').length } };
}

/** The deployments whose project's commerce settings resolve to this connection (the bindings service decides). */
async function deployedSitesOfShop(db: Knex, accountId: string, connectionId: string): Promise<DeploymentRow[]> {
  const candidates = await serviceHostedDeployments(db, accountId);
  const projectIds = [...new Set(candidates.map((d) => d.project_id))];
  const bound = new Set<string>();
  for (const projectId of projectIds) {
    try {
      const resolved = await resolveProjectConnection(db, accountId, projectId);
      if (resolved.connection?.id === connectionId) bound.add(projectId);
    } catch (err) {
      // Deleted since the candidates were read: it has no deployments any more.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  return candidates.filter((d) => bound.has(d.project_id));
}
