/**
 * JSON-LD schema markup per page and locale (beta): get, replace, and the bulk query and update. A locale without
 * markup of its own shows the primary locale's, flagged isInherited; null clears.
 */
import { z } from 'zod';
import { json, parseBody, platformError, type SimResponse } from '../http';
import type { Route, RouteContext } from '../router';
import { siteData, type SiteData } from '../siteData';
import type { SimSite } from '../state';
import { readableLocale } from './content';
import { withPage } from './pageContent';
import { withSite } from './support';

const jsonLd = z.union([z.record(z.string(), z.unknown()), z.string(), z.null()]);
const schemaBody = z.object({ jsonLdSchema: jsonLd });
const schemaTarget = { id: z.string().min(1), localeId: z.string().min(1).optional() };
const bulkSchemaQuery = z.object({ pages: z.array(z.object(schemaTarget)).min(1).max(100) });
const bulkSchemaBody = z.object({
  pages: z
    .array(z.object({ ...schemaTarget, jsonLdSchema: jsonLd }))
    .min(1)
    .max(25),
});
const PAGE_SCHEMA = /^\/pages\/(?<pageId>[^/]+)\/schema-markup$/;

const schemaKey = (pageId: string, localeId: string) => `${pageId}:${localeId}`;

function schemaView(site: SimSite, d: SiteData, pageId: string, localeId: string): Record<string, unknown> {
  const own = d.schema.get(schemaKey(pageId, localeId));
  const jsonLdSchema = own !== undefined ? own : (d.schema.get(schemaKey(pageId, site.locales.primary.id)) ?? null);
  return {
    id: pageId,
    localeId,
    jsonLdSchema: structuredClone(jsonLdSchema),
    isInherited: own === undefined && localeId !== site.locales.primary.id,
  };
}

function unknownTargets(ctx: RouteContext, site: SimSite, pages: Array<{ id: string; localeId?: string }>): SimResponse | undefined {
  const bad = pages.filter((p) => ctx.state.pages.get(p.id)?.siteId !== site.id);
  if (bad.length > 0)
    return platformError(
      404,
      'resource_not_found',
      'Page not found',
      bad.map((p) => ({ param: 'pages.id', description: p.id })),
    );
  const badLocale = pages.filter((p) => !readableLocale(site, p.localeId ?? null).ok);
  if (badLocale.length > 0)
    return platformError(
      400,
      'validation_error',
      'Unknown locale',
      badLocale.map((p) => ({ param: 'pages.localeId', description: String(p.localeId) })),
    );
  return undefined;
}

export const schemaMarkupRoutes: Route[] = [
  {
    method: 'GET',
    pattern: PAGE_SCHEMA,
    scope: 'pages:read',
    handle: (ctx) =>
      withPage(ctx, (page, site) => {
        const locale = readableLocale(site, ctx.req.query.get('localeId'));
        return locale.ok ? json(200, schemaView(site, siteData(ctx.state, site.id), page.id, locale.localeId)) : locale.response;
      }),
  },
  {
    method: 'PUT',
    pattern: PAGE_SCHEMA,
    scope: 'pages:write',
    handle: (ctx) =>
      withPage(ctx, (page, site) => {
        const locale = readableLocale(site, ctx.req.query.get('localeId'));
        if (!locale.ok) return locale.response;
        const body = parseBody(ctx.req, schemaBody);
        if (!body.ok) return body.response;
        const d = siteData(ctx.state, site.id);
        d.schema.set(schemaKey(page.id, locale.localeId), body.value.jsonLdSchema);
        return json(200, schemaView(site, d, page.id, locale.localeId));
      }),
  },
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/pages\/schema-markup\/query$/,
    scope: 'pages:read',
    handle: (ctx) =>
      withSite(ctx, (site, d) => {
        const body = parseBody(ctx.req, bulkSchemaQuery);
        if (!body.ok) return body.response;
        const refused = unknownTargets(ctx, site, body.value.pages);
        if (refused) return refused;
        return json(200, { pages: body.value.pages.map((p) => schemaView(site, d, p.id, p.localeId ?? site.locales.primary.id)) });
      }),
  },
  {
    method: 'PATCH',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/pages\/schema-markup$/,
    scope: 'pages:write',
    handle: (ctx) =>
      withSite(ctx, (site, d) => {
        const body = parseBody(ctx.req, bulkSchemaBody);
        if (!body.ok) return body.response;
        const refused = unknownTargets(ctx, site, body.value.pages);
        if (refused) return refused;
        for (const p of body.value.pages) d.schema.set(schemaKey(p.id, p.localeId ?? site.locales.primary.id), p.jsonLdSchema);
        return json(200, { pages: body.value.pages.map((p) => schemaView(site, d, p.id, p.localeId ?? site.locales.primary.id)) });
      }),
  },
];
