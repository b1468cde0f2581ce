/** CMS collections: list per site and get with field definitions. */
import { json } from '../http';
import { findCollection, findSite } from '../lookup';
import type { Route } from '../router';
import type { SimCollection } from '../state';

function summary(c: SimCollection): Record<string, unknown> {
  return {
    id: c.id,
    displayName: c.displayName,
    singularName: c.singularName,
    slug: c.slug,
    createdOn: c.createdOn,
    lastUpdated: c.lastUpdated,
  };
}

export const collectionRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/collections$/,
    scope: 'cms:read',
    handle: (ctx) => {
      const site = findSite(ctx, ctx.req.params.siteId);
      if (!site.ok) return site.response;
      const collections = [...ctx.state.collections.values()].filter((c) => c.siteId === site.value.id);
      return json(200, { collections: collections.map(summary) });
    },
  },
  {
    method: 'GET',
    pattern: /^\/collections\/(?<collectionId>[^/]+)$/,
    scope: 'cms:read',
    handle: (ctx) => {
      const found = findCollection(ctx, ctx.req.params.collectionId);
      if (!found.ok) return found.response;
      return json(200, { ...summary(found.value), fields: structuredClone(found.value.fields) });
    },
  },
];
