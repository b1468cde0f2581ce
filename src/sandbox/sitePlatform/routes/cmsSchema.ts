/** CMS schema and bulk writes: create and delete collections, create/update/delete fields, bulk item update, live items. */
import { z } from 'zod';
import { emitItems } from '../events';
import { json, parseBody, platformError, type SimResponse } from '../http';
import { findCollection, findItem, listedCmsLocales } from '../lookup';
import { paginate, readPageQuery } from '../pagination';
import type { Route, RouteContext } from '../router';
import { addCollection } from '../seed';
import { iso, newId, slugify, type SimCollection, type SimItem } from '../state';
import { itemView } from './items';
import { createdFieldView, fieldCreateBody, type FieldCreateBody } from './fieldTypes';
import { withSite } from './support';

const fieldUpdate = z.object({
  displayName: z.string().min(1).optional(),
  helpText: z.string().optional(),
  isRequired: z.boolean().optional(),
});
const collectionBody = z.object({
  displayName: z.string().min(1),
  singularName: z.string().min(1),
  slug: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .optional(),
  fields: z.array(fieldCreateBody).optional(),
});
const fieldData = z.record(z.string(), z.unknown());
const bulkUpdate = z.object({
  items: z
    .array(
      z.object({
        id: z.string().min(1),
        cmsLocaleId: z.string().min(1).optional(),
        isArchived: z.boolean().optional(),
        isDraft: z.boolean().optional(),
        fieldData: fieldData.optional(),
      }),
    )
    .min(1)
    .max(100),
});

function withCollection(ctx: RouteContext, then: (c: SimCollection) => SimResponse): SimResponse {
  const found = findCollection(ctx, ctx.req.params.collectionId);
  return found.ok ? then(found.value) : found.response;
}

/** A Reference or MultiReference field must point at a collection of the same site. */
function unknownReference(ctx: RouteContext, siteId: string, field: FieldCreateBody): SimResponse | undefined {
  if (field.type !== 'Reference' && field.type !== 'MultiReference') return undefined;
  const target = ctx.state.collections.get(field.metadata.collectionId);
  if (target && target.siteId === siteId) return undefined;
  return platformError(400, 'validation_error', 'Referenced collection not found', [
    { param: 'metadata.collectionId', description: field.metadata.collectionId },
  ]);
}

const FIELD = /^\/collections\/(?<collectionId>[^/]+)\/fields\/(?<fieldId>[^/]+)$/;
const BUILT_IN = new Set(['name', 'slug']);

export const cmsSchemaRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/collections$/,
    scope: 'cms:write',
    handle: (ctx) =>
      withSite(ctx, (site) => {
        const body = parseBody(ctx.req, collectionBody);
        if (!body.ok) return body.response;
        const slug = body.value.slug ?? slugify(body.value.displayName);
        if ([...ctx.state.collections.values()].some((c) => c.siteId === site.id && c.slug === slug)) {
          return platformError(409, 'conflict', `Collection slug '${slug}' is already in use`);
        }
        const badReference = (body.value.fields ?? []).map((f) => unknownReference(ctx, site.id, f)).find(Boolean);
        if (badReference) return badReference;
        const c = addCollection(ctx.state, site.id, {
          displayName: body.value.displayName,
          singularName: body.value.singularName,
          slug,
          fields: body.value.fields?.map((f) => ({
            slug: slugify(f.displayName),
            type: f.type,
            displayName: f.displayName,
            isRequired: f.isRequired,
          })),
        });
        const { items: _items, siteId: _siteId, ...view } = c;
        return json(200, structuredClone(view));
      }),
  },
  {
    method: 'DELETE',
    pattern: /^\/collections\/(?<collectionId>[^/]+)$/,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        ctx.state.collections.delete(c.id);
        return { status: 204 };
      }),
  },
  {
    method: 'POST',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/fields$/,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const body = parseBody(ctx.req, fieldCreateBody);
        if (!body.ok) return body.response;
        const badReference = unknownReference(ctx, c.siteId, body.value);
        if (badReference) return badReference;
        const slug = slugify(body.value.displayName);
        if (c.fields.some((f) => f.slug === slug)) return platformError(409, 'conflict', `Field slug '${slug}' is already in use`);
        const field = {
          id: newId(),
          isEditable: true,
          isRequired: body.value.isRequired,
          type: body.value.type,
          slug,
          displayName: body.value.displayName,
          helpText: body.value.helpText ?? null,
        };
        c.fields.push(field);
        c.lastUpdated = iso(ctx.state.now());
        return json(200, createdFieldView(field, body.value));
      }),
  },
  {
    method: 'PATCH',
    pattern: FIELD,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const field = c.fields.find((f) => f.id === ctx.req.params.fieldId);
        if (!field) return platformError(404, 'resource_not_found', 'Field not found');
        const body = parseBody(ctx.req, fieldUpdate);
        if (!body.ok) return body.response;
        Object.assign(field, body.value);
        return json(200, field);
      }),
  },
  {
    method: 'DELETE',
    pattern: FIELD,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const field = c.fields.find((f) => f.id === ctx.req.params.fieldId);
        if (!field) return platformError(404, 'resource_not_found', 'Field not found');
        if (BUILT_IN.has(field.slug))
          return platformError(400, 'validation_error', 'The name and slug fields cannot be deleted', [
            { param: 'field_id', description: field.slug },
          ]);
        c.fields.splice(c.fields.indexOf(field), 1);
        for (const item of c.items) delete item.fieldData[field.slug];
        return { status: 204 };
      }),
  },
  {
    method: 'PATCH',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items$/,
    scope: 'cms:write',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const body = parseBody(ctx.req, bulkUpdate);
        if (!body.ok) return body.response;
        const targets: SimItem[] = [];
        for (const u of body.value.items) {
          const found = findItem(c, u.id, u.cmsLocaleId);
          if (!found.ok) return found.response;
          targets.push(found.value);
        }
        const now = iso(ctx.state.now());
        const updated = body.value.items.map((u, at) => {
          const item = targets[at];
          if (u.isArchived !== undefined) item.isArchived = u.isArchived;
          if (u.isDraft !== undefined) item.isDraft = u.isDraft;
          if (u.fieldData) item.fieldData = { ...item.fieldData, ...u.fieldData } as SimItem['fieldData'];
          item.lastUpdated = now;
          return itemView(item);
        });
        emitItems(ctx.state, 'collection_item_changed', c, targets);
        return json(200, { items: updated });
      }),
  },
  {
    method: 'GET',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/live$/,
    scope: 'cms:read',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const q = readPageQuery(ctx.req.query);
        if (!q.ok) return q.response;
        const locales = listedCmsLocales(ctx.state, c, ctx.req.query.get('cmsLocaleId'));
        const page = paginate(
          c.items.filter((i) => i.lastPublished !== null && locales.includes(i.cmsLocaleId)),
          q.value,
        );
        return json(200, { items: page.rows.map(itemView), pagination: page.pagination });
      }),
  },
  {
    method: 'GET',
    pattern: /^\/collections\/(?<collectionId>[^/]+)\/items\/(?<itemId>[^/]+)\/live$/,
    scope: 'cms:read',
    handle: (ctx) =>
      withCollection(ctx, (c) => {
        const found = findItem(c, ctx.req.params.itemId, ctx.req.query.get('cmsLocaleId'));
        return found.ok && found.value.lastPublished !== null
          ? json(200, itemView(found.value))
          : platformError(404, 'item_not_found', 'Live item not found');
      }),
  },
];
