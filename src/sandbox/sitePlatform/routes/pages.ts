/** Pages: list per site (offset/limit), get and update metadata (title, slug, seo, openGraph) per locale. */
import { z } from 'zod';
import { emitPageMetadataUpdated } from '../events';
import { json, parseBody, platformError, type SimResponse } from '../http';
import { findPage, findSite } from '../lookup';
import { paginate, readPageQuery } from '../pagination';
import type { Route } from '../router';
import { iso, siteLocaleIds, type PageMeta, type SimPage, type SimState } from '../state';

const updateBody = z.object({
  title: z.string().min(1).optional(),
  slug: z
    .string()
    .regex(/^[a-z0-9-]*$/)
    .optional(),
  seo: z.object({ title: z.string().optional(), description: z.string().optional() }).optional(),
  openGraph: z
    .object({
      title: z.string().optional(),
      titleCopied: z.boolean().optional(),
      description: z.string().optional(),
      descriptionCopied: z.boolean().optional(),
    })
    .optional(),
});

type Locale = { ok: true; id: string } | { ok: false; response: SimResponse };

/** The requested locale (query `localeId`), the primary one when absent. */
export function localeOf(state: SimState, page: { siteId: string }, value: string | null): Locale {
  const site = state.sites.get(page.siteId)!;
  if (value === null) return { ok: true, id: site.locales.primary.id };
  if (siteLocaleIds(site).includes(value)) return { ok: true, id: value };
  return { ok: false, response: platformError(400, 'validation_error', 'Unknown locale', [{ param: 'localeId', description: value }]) };
}

/** A secondary locale without its own metadata shows the primary locale's. */
export function metaFor(state: SimState, page: SimPage, localeId: string): PageMeta {
  const primary = state.sites.get(page.siteId)!.locales.primary.id;
  return page.meta.get(localeId) ?? page.meta.get(primary)!;
}

export function pageView(state: SimState, page: SimPage, localeId: string): Record<string, unknown> {
  const meta = metaFor(state, page, localeId);
  return structuredClone({
    id: page.id,
    siteId: page.siteId,
    title: meta.title,
    slug: meta.slug,
    parentId: page.parentId,
    collectionId: page.collectionId,
    createdOn: page.createdOn,
    lastUpdated: page.lastUpdated,
    archived: page.archived,
    draft: page.draft,
    canBranch: true,
    seo: meta.seo,
    openGraph: meta.openGraph,
    localeId,
    publishedPath: `/${meta.slug}`,
  });
}

export const pageRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/pages$/,
    scope: 'pages:read',
    handle: (ctx) => {
      const site = findSite(ctx, ctx.req.params.siteId);
      if (!site.ok) return site.response;
      const locale = localeOf(ctx.state, { siteId: site.value.id }, ctx.req.query.get('localeId'));
      if (!locale.ok) return locale.response;
      const q = readPageQuery(ctx.req.query);
      if (!q.ok) return q.response;
      const pages = [...ctx.state.pages.values()].filter((p) => p.siteId === site.value.id);
      const page = paginate(pages, q.value);
      return json(200, { pages: page.rows.map((p) => pageView(ctx.state, p, locale.id)), pagination: page.pagination });
    },
  },
  {
    method: 'GET',
    pattern: /^\/pages\/(?<pageId>[^/]+)$/,
    scope: 'pages:read',
    handle: (ctx) => {
      const page = findPage(ctx, ctx.req.params.pageId);
      if (!page.ok) return page.response;
      const locale = localeOf(ctx.state, page.value, ctx.req.query.get('localeId'));
      return locale.ok ? json(200, pageView(ctx.state, page.value, locale.id)) : locale.response;
    },
  },
  {
    method: 'PUT',
    pattern: /^\/pages\/(?<pageId>[^/]+)$/,
    scope: 'pages:write',
    handle: (ctx) => {
      const found = findPage(ctx, ctx.req.params.pageId);
      if (!found.ok) return found.response;
      const page = found.value;
      const locale = localeOf(ctx.state, page, ctx.req.query.get('localeId'));
      if (!locale.ok) return locale.response;
      const body = parseBody(ctx.req, updateBody);
      if (!body.ok) return body.response;
      const current = metaFor(ctx.state, page, locale.id);
      const next: PageMeta = {
        title: body.value.title ?? current.title,
        slug: body.value.slug ?? current.slug,
        seo: { ...current.seo, ...body.value.seo },
        openGraph: { ...current.openGraph, ...body.value.openGraph },
      };
      if (slugClash(ctx.state, page, locale.id, next.slug)) {
        return platformError(409, 'conflict', `Slug '${next.slug}' is already used by a sibling page`, [
          { param: 'slug', description: 'must be unique' },
        ]);
      }
      page.meta.set(locale.id, next);
      page.lastUpdated = iso(ctx.state.now());
      emitPageMetadataUpdated(ctx.state, page);
      return json(200, pageView(ctx.state, page, locale.id));
    },
  },
];

function slugClash(state: SimState, page: SimPage, localeId: string, slug: string): boolean {
  return [...state.pages.values()].some(
    (p) => p.id !== page.id && p.siteId === page.siteId && p.parentId === page.parentId && metaFor(state, p, localeId).slug === slug,
  );
}
