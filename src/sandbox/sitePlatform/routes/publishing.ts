/** CMS item publish state: publish a list of items, unpublish one item or a list (the `/live` endpoints). */
import { z } from 'zod';
import { json, parseBody, type SimResponse } from '../http';
import { findCollection, findItem, itemVariants } from '../lookup';
import type { Route, RouteContext } from '../router';
import { iso, type SimCollection } from '../state';

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
        for (const { id, cmsLocaleIds } of body.value.items) {
          for (const item of itemVariants(c, id)) if (!cmsLocaleIds || cmsLocaleIds.includes(item.cmsLocaleId)) item.lastPublished = null;
        }
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
        for (const item of itemVariants(c, found.value.id)) item.lastPublished = null;
        return { status: 204 };
      }),
  },
];
