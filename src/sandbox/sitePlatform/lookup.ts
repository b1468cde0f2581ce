/** Finds objects the token may see; anything on a site outside its grant is simply not found. */
import { canSeeSite } from './auth';
import { platformError, type SimResponse } from './http';
import type { RouteContext } from './router';
import type { SimCollection, SimItem, SimPage, SimSite, SimState } from './state';

export type Found<T> = { ok: true; value: T } | { ok: false; response: SimResponse };

const missing = (code: string, what: string): { ok: false; response: SimResponse } => ({
  ok: false,
  response: platformError(404, code, `${what} not found`),
});

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

/**
 * An item keeps one record per CMS locale under one id. The record of `cmsLocaleId` when given; otherwise the
 * primary locale's, or the first locale the item exists in.
 */
export function findItem(collection: SimCollection, itemId: string, cmsLocaleId?: string | null): Found<SimItem> {
  const variants = collection.items.filter((i) => i.id === itemId);
  const item = cmsLocaleId ? variants.find((i) => i.cmsLocaleId === cmsLocaleId) : variants[0];
  return item ? { ok: true, value: item } : missing('item_not_found', 'Item');
}

/** Every locale record of one item. */
export const itemVariants = (collection: SimCollection, itemId: string): SimItem[] => collection.items.filter((i) => i.id === itemId);

/** The CMS locale ids a list reads: the `cmsLocaleId` query (comma-separated) or the site's primary CMS locale. */
export function listedCmsLocales(state: SimState, collection: SimCollection, query: string | null): string[] {
  const requested = (query ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return requested.length > 0 ? requested : [state.sites.get(collection.siteId)!.locales.primary.cmsLocaleId];
}

export function findPage(ctx: RouteContext, pageId: string): Found<SimPage> {
  const page = ctx.state.pages.get(pageId);
  if (!page || !canSeeSite(ctx.token, page.siteId)) return missing('resource_not_found', 'Page');
  return { ok: true, value: page };
}
