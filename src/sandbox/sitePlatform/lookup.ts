/** Finds objects the token may see; anything on a site outside its grant is simply not found. */
import { canSeeSite } from './auth';
import { platformError, type SimResponse } from './http';
import type { RouteContext } from './router';
import type { SimCollection, SimItem, SimPage, SimSite } from './state';

export type Found<T> = { ok: true; value: T } | { ok: false; response: SimResponse };

const missing = (code: string, what: string): { ok: false; response: SimResponse } =>
  ({ ok: false, response: platformError(404, code, `${what} not found`) });

export function findSite(ctx: RouteContext, siteId: string): Found<SimSite> {
  const site = ctx.state.sites.get(siteId);
  if (!site || !canSeeSite(ctx.token, site.id)) return missing('resource_not_found', 'Site');
  return { ok: true, value: site };
}

export function findCollection(ctx: RouteContext, collectionId: string): Found<SimCollection> {
  const collection = ctx.state.collections.get(collectionId);
  if (!collection || !canSeeSite(ctx.token, collection.siteId)) return missing('collection_not_found', 'Collection');
  return { ok: true, value: collection };
}

export function findItem(collection: SimCollection, itemId: string): Found<SimItem> {
  const item = collection.items.find((i) => i.id === itemId);
  return item ? { ok: true, value: item } : missing('item_not_found', 'Item');
}

export function findPage(ctx: RouteContext, pageId: string): Found<SimPage> {
  const page = ctx.state.pages.get(pageId);
  if (!page || !canSeeSite(ctx.token, page.siteId)) return missing('resource_not_found', 'Page');
  return { ok: true, value: page };
}
