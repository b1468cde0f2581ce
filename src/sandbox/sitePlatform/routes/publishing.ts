/** CMS item publish state: publish a list of items, unpublish one item or a list (the `/live` endpoints). */
import { z } from 'zod';
import { json, parseBody, type SimResponse } from '../http';
import { findCollection, findItem } from '../lookup';
import type { Route, RouteContext } from '../router';
import { iso, type SimCollection } from '../state';

const publishBody = z.object({ itemIds: z.array(z.string().min(1)).min(1).max(100) });
const unpublishBody = z.object({ items: z.array(z.object({ id: z.string().min(1) })).min(1).max(100) });

function withCollection(ctx: RouteContext, then: (c: SimCollection) => SimResponse): SimResponse {
  const found = findCollection(ctx, ctx.req.params.collectionId);
  return found.ok ? then(found.value) : found.response;
}

export const publishingRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/publish$/,
    scope: 'cms:write',
    handle: (ctx) => withCollection(ctx, (c) => {
      const body = parseBody(ctx.req, publishBody);
      if (!body.ok) return body.response;
      const at = iso(ctx.state.now());
      const publishedItemIds: string[] = [];
      const errors: string[] = [];
      for (const id of body.value.itemIds) {
        const item = c.items.find((i) => i.id === id);
        if (!item || item.isArchived) { errors.push(id); continue; }
        item.lastPublished = at;
        item.isDraft = false;
        publishedItemIds.push(id);
      }
      return json(202, { publishedItemIds, errors });
    }),
  },
  {
    method: 'DELETE',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/live$/,
    scope: 'cms:write',
    handle: (ctx) => withCollection(ctx, (c) => {
      const body = parseBody(ctx.req, unpublishBody);
      if (!body.ok) return body.response;
      for (const { id } of body.value.items) {
        const found = findItem(c, id);
        if (!found.ok) return found.response;
      }
      for (const { id } of body.value.items) c.items.find((i) => i.id === id)!.lastPublished = null;
      return { status: 204 };
    }),
  },
  {
    method: 'DELETE',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/(?<itemId>[^/]+)\/live$/,
    scope: 'cms:write',
    handle: (ctx) => withCollection(ctx, (c) => {
      const found = findItem(c, ctx.req.params.itemId);
      if (!found.ok) return found.response;
      found.value.lastPublished = null;
      return { status: 204 };
    }),
  },
];

