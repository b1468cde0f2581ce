/** CMS items: list (offset/limit), get, create, update and delete, each in one CMS locale (`cmsLocaleId`, primary by default). */
import { z } from 'zod';
import { emitItems } from '../events';
import { json, parseBody, platformError, type SimResponse } from '../http';
import { findCollection, findItem, itemVariants, listedCmsLocales } from '../lookup';
import { paginate, readPageQuery } from '../pagination';
import type { Route, RouteContext } from '../router';
import { iso, newId, type SimCollection, type SimItem } from '../state';

const fieldData = z.record(z.string(), z.unknown());

const createBody = z.object({
  cmsLocaleId: z.string().min(1).optional(),
  isArchived: z.boolean().default(false),
  isDraft: z.boolean().default(false),
  fieldData: fieldData.and(z.object({ name: z.string().min(1), slug: z.string().regex(/^[a-z0-9-]+$/) })),
});

const updateBody = z.object({
  cmsLocaleId: z.string().min(1).optional(),
  isArchived: z.boolean().optional(),
  isDraft: z.boolean().optional(),
  fieldData: fieldData
    .and(
      z.object({
        name: z.string().min(1).optional(),
        slug: z
          .string()
          .regex(/^[a-z0-9-]+$/)
          .optional(),
      }),
    )
    .optional(),
});

export function itemView(item: SimItem): SimItem {
  return structuredClone(item);
}

export const slugConflict = (slug: string): SimResponse =>
  platformError(409, 'conflict', `Unique value is already in database: '${slug}'`, [
    { param: 'fieldData.slug', description: 'must be unique' },
  ]);

export function slugTaken(collection: SimCollection, slug: string, exceptId?: string): SimResponse | undefined {
  return collection.items.some((i) => i.fieldData.slug === slug && i.id !== exceptId) ? slugConflict(slug) : undefined;
}

function withCollection(ctx: RouteContext, then: (c: SimCollection) => SimResponse): SimResponse {
  const found = findCollection(ctx, ctx.req.params.collectionId);
  return found.ok ? then(found.value) : found.response;
}

function withItem(
  ctx: RouteContext,
  then: (c: SimCollection, i: SimItem) => SimResponse,
  cmsLocaleId = ctx.req.query.get('cmsLocaleId'),
): SimResponse {
  return withCollection(ctx, (c) => {
    const item = findItem(c, ctx.req.params.itemId, cmsLocaleId);
    return item.ok ? then(c, item.value) : item.response;
  });
}

const ITEMS = /^\/collections\/(?<collectionId>[^/]+)\/items$/;
const ITEM = /^\/collections\/(?<collectionId>[^/]+)\/items\/(?<itemId>(?!live$|publish$)[^/]+)$/;

export const itemRoutes: Route[] = [
  {
    method: 'GET',
    pattern: ITEMS,
    scope: 'cms:read',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const q = readPageQuery(ctx.req.query);
        if (!q.ok) return q.response;
        const locales = listedCmsLocales(ctx.state, c, ctx.req.query.get('cmsLocaleId'));
        const page = paginate(
          c.items.filter((i) => locales.includes(i.cmsLocaleId)),
          q.value,
        );
        return json(200, { items: page.rows.map(itemView), pagination: page.pagination });
      }),
  },
  {
    method: 'GET',
    pattern: ITEM,
    scope: 'cms:read',
    handle: (ctx) => withItem(ctx, (_c, item) => json(200, itemView(item))),
  },
  {
    method: 'POST',
    pattern: ITEMS,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const body = parseBody(ctx.req, createBody);
        if (!body.ok) return body.response;
        const taken = slugTaken(c, body.value.fieldData.slug);
        if (taken) return taken;
        const now = iso(ctx.state.now());
        const site = ctx.state.sites.get(c.siteId)!;
        const cmsLocaleId = body.value.cmsLocaleId ?? site.locales.primary.cmsLocaleId;
        if (![site.locales.primary, ...site.locales.secondary].some((l) => l.cmsLocaleId === cmsLocaleId)) {
          return platformError(400, 'validation_error', 'Unknown cmsLocaleId', [{ param: 'cmsLocaleId', description: cmsLocaleId }]);
        }
        const item: SimItem = {
          id: newId(),
          cmsLocaleId,
          createdOn: now,
          lastUpdated: now,
          lastPublished: null,
          isArchived: body.value.isArchived,
          isDraft: body.value.isDraft,
          fieldData: { ...body.value.fieldData },
        };
        c.items.push(item);
        emitItems(ctx.state, 'collection_item_created', c, [item]);
        return json(202, itemView(item));
      }),
  },
  {
    method: 'PATCH',
    pattern: ITEM,
    scope: 'cms:write',
    handle: (ctx) => {
      const body = parseBody(ctx.req, updateBody);
      if (!body.ok) return body.response;
      return withItem(
        ctx,
        (c, item) => {
          const slug = body.value.fieldData?.slug;
          const taken = slug === undefined ? undefined : slugTaken(c, slug, item.id);
          if (taken) return taken;
          if (body.value.isArchived !== undefined) item.isArchived = body.value.isArchived;
          if (body.value.isDraft !== undefined) item.isDraft = body.value.isDraft;
          if (body.value.fieldData) item.fieldData = { ...item.fieldData, ...body.value.fieldData } as SimItem['fieldData'];
          item.lastUpdated = iso(ctx.state.now());
          emitItems(ctx.state, 'collection_item_changed', c, [item]);
          return json(200, itemView(item));
        },
        body.value.cmsLocaleId ?? ctx.req.query.get('cmsLocaleId'),
      );
    },
  },
  {
    method: 'DELETE',
    pattern: ITEM,
    scope: 'cms:write',
    // With cmsLocaleId only that locale's record goes; without it, the item in every locale.
    handle: (ctx) =>
      withItem(ctx, (c, item) => {
        const gone = ctx.req.query.get('cmsLocaleId') ? [item] : itemVariants(c, item.id);
        c.items = c.items.filter((i) => !gone.includes(i));
        emitItems(ctx.state, 'collection_item_deleted', c, gone);
        return { status: 204 };
      }),
  },
];
