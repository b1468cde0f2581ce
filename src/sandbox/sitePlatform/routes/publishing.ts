/** CMS item publish state: publish a list of items, unpublish one item or a list (the `/live` endpoints). */
import { z } from 'zod';
import { emitItems } from '../events';
import { json, parseBody, type SimResponse } from '../http';
import { findCollection, findItem, itemVariants } from '../lookup';
import type { Route, RouteContext } from '../router';
import { iso, type SimCollection, type SimItem } from '../state';

const publishBody = z.object({ itemIds: z.array(z.string().min(1)).min(1).max(100) });
// Each item may name the CMS locales to take down; without them it goes down in every locale.
const unpublishBody = z.object({
  items: z
    .array(z.object({ id: z.string().min(1), cmsLocaleIds: z.array(z.string().min(1)).optional() }))
    .min(1)
    .max(100),
});

function withCollection(ctx: RouteContext, then: (c: SimCollection) => SimResponse): SimResponse {
  const found = findCollection(ctx, ctx.req.params.collectionId);
  return found.ok ? then(found.value) : found.response;
}

/** Takes the records down; collection_item_unpublished fires for each record that was live. */
function unpublish(ctx: RouteContext, c: SimCollection, records: SimItem[]): void {
  const live = records.filter((i) => i.lastPublished !== null);
  for (const item of records) item.lastPublished = null;
  emitItems(ctx.state, 'collection_item_unpublished', c, live);
}

export const publishingRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/publish$/,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const body = parseBody(ctx.req, publishBody);
        if (!body.ok) return body.response;
        const at = iso(ctx.state.now());
        const publishedItemIds: string[] = [];
        const errors: string[] = [];
        for (const id of body.value.itemIds) {
          const variants = itemVariants(c, id);
          if (variants.length === 0 || variants.some((i) => i.isArchived)) {
            errors.push(id);
            continue;
          }
          for (const item of variants) Object.assign(item, { lastPublished: at, isDraft: false });
          emitItems(ctx.state, 'collection_item_published', c, variants);
          publishedItemIds.push(id);
        }
        return json(202, { publishedItemIds, errors });
      }),
  },
  {
    method: 'DELETE',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/live$/,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const body = parseBody(ctx.req, unpublishBody);
        if (!body.ok) return body.response;
        for (const { id } of body.value.items) {
          const found = findItem(c, id);
          if (!found.ok) return found.response;
        }
        const taken: SimItem[] = [];
        for (const { id, cmsLocaleIds } of body.value.items) {
          taken.push(...itemVariants(c, id).filter((i) => !cmsLocaleIds || cmsLocaleIds.includes(i.cmsLocaleId)));
        }
        unpublish(ctx, c, taken);
        return { status: 204 };
      }),
  },
  {
    method: 'DELETE',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/(?<itemId>[^/]+)\/live$/,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const found = findItem(c, ctx.req.params.itemId);
        if (!found.ok) return found.response;
        unpublish(ctx, c, itemVariants(c, found.value.id));
        return { status: 204 };
      }),
  },
];
