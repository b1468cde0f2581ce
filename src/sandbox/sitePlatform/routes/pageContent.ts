/** Page body DOM per locale and bulk page metadata (beta). */
import { z } from 'zod';
import { emitPageMetadataUpdated } from '../events';
import { json, parseBody, type SimResponse } from '../http';
import { findPage } from '../lookup';
import type { Route, RouteContext } from '../router';
import { siteData, type DomNode } from '../siteData';
import { iso, type SimPage, type SimSite } from '../state';
import { applyNodeWrites, localeCopy, nodeWrites, pagedNodes, readableLocale, readRows, textNode, writableLocale } from './content';
import { metaFor } from './pages';
import { withSite } from './support';

const bulkMetaBody = z.object({
  pages: z
    .array(
      z.object({
        id: z.string().min(1),
        localeId: z.string().optional(),
        title: z.string().min(1).optional(),
        slug: z
          .string()
          .regex(/^[a-z0-9-]*$/)
          .optional(),
        seo: z.object({ title: z.string().optional(), description: z.string().optional() }).optional(),
        openGraph: z.object({ title: z.string().optional(), description: z.string().optional() }).optional(),
      }),
    )
    .min(1)
    .max(100),
});

/** The page's DOM per locale, seeded from the page title the first time it is read. */
function domOf(ctx: RouteContext, page: SimPage): Map<string, DomNode[]> {
  const all = siteData(ctx.state, page.siteId).dom;
  let byLocale = all.get(page.id);
  if (!byLocale) {
    const site = ctx.state.sites.get(page.siteId)!;
    const title = metaFor(ctx.state, page, site.locales.primary.id).title;
    byLocale = new Map([
      [site.locales.primary.id, [textNode(`${page.id}-heading`, title), textNode(`${page.id}-body`, `${title} body text`)]],
    ]);
    all.set(page.id, byLocale);
  }
  return byLocale;
}

export function withPage(ctx: RouteContext, then: (page: SimPage, site: SimSite) => SimResponse): SimResponse {
  const page = findPage(ctx, ctx.req.params.pageId);
  return page.ok ? then(page.value, ctx.state.sites.get(page.value.siteId)!) : page.response;
}

const PAGE_DOM = /^\/pages\/(?<pageId>[^/]+)\/dom$/;

export const pageContentRoutes: Route[] = [
  {
    method: 'GET',
    pattern: PAGE_DOM,
    scope: 'pages:read',
    handle: (ctx) =>
      withPage(ctx, (page, site) => {
        const locale = readableLocale(site, ctx.req.query.get('localeId'));
        if (!locale.ok) return locale.response;
        const nodes = readRows(domOf(ctx, page), site.locales.primary.id, locale.localeId);
        return pagedNodes(ctx.req.query, nodes, 'nodes', { pageId: page.id, lastUpdated: page.lastUpdated });
      }),
  },
  {
    method: 'POST',
    pattern: PAGE_DOM,
    scope: 'pages:write',
    handle: (ctx) =>
      withPage(ctx, (page, site) => {
        const locale = writableLocale(site, ctx.req.query.get('localeId'));
        if (!locale.ok) return locale.response;
        const body = parseBody(ctx.req, nodeWrites);
        if (!body.ok) return body.response;
        const rows = localeCopy(domOf(ctx, page), site.locales.primary.id, locale.localeId);
        const errors = applyNodeWrites(rows, body.value.nodes);
        page.lastUpdated = iso(ctx.state.now());
        return json(200, { errors });
      }),
  },
  {
    method: 'PATCH',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/pages$/,
    scope: 'pages:write',
    handle: (ctx) =>
      withSite(ctx, (site) => {
        const body = parseBody(ctx.req, bulkMetaBody);
        if (!body.ok) return body.response;
        const errors: string[] = [];
        const updated: string[] = [];
        for (const p of body.value.pages) {
          const page = ctx.state.pages.get(p.id);
          const localeId = p.localeId ?? site.locales.primary.id;
          if (!page || page.siteId !== site.id) {
            errors.push(`Page ${p.id} not found`);
            continue;
          }
          if (!readableLocale(site, localeId).ok) {
            errors.push(`Unknown locale ${localeId}`);
            continue;
          }
          const current = metaFor(ctx.state, page, localeId);
          page.meta.set(localeId, {
            title: p.title ?? current.title,
            slug: p.slug ?? current.slug,
            seo: { ...current.seo, ...p.seo },
            openGraph: { ...current.openGraph, ...p.openGraph },
          });
          page.lastUpdated = iso(ctx.state.now());
          emitPageMetadataUpdated(ctx.state, page);
          updated.push(p.id);
        }
        return json(200, { updatedPageIds: updated, errors });
      }),
  },
];
