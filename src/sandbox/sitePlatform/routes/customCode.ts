/**
 * Registered scripts (hosted and inline), the scripts applied to a site or a page, and the list of applied blocks.
 * Applying a script requires it to be registered at that exact version.
 */
import { z } from 'zod';
import { json, parseBody, platformError, type SimResponse } from '../http';
import { findPage } from '../lookup';
import type { Route, RouteContext } from '../router';
import { siteData, type AppliedScript, type CustomCodeBlock, type SiteData } from '../siteData';
import { iso, slugify } from '../state';
import { withSite } from './support';

const INLINE_MAX = 2000;
const semver = z.string().regex(/^\d+\.\d+\.\d+$/, 'must be a semantic version');
const common = { displayName: z.string().min(1), version: semver, canCopy: z.boolean().default(false) };
const hostedBody = z.object({ ...common, hostedLocation: z.url(), integrityHash: z.string().min(1) });
const inlineBody = z.object({ ...common, sourceCode: z.string().min(1).max(INLINE_MAX), integrityHash: z.string().optional() });
const applyBody = z.object({
  scripts: z.array(
    z.object({
      id: z.string().min(1),
      location: z.enum(['header', 'footer']),
      version: semver,
      attributes: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
});

function unregistered(d: SiteData, scripts: AppliedScript[]): SimResponse | undefined {
  const bad = scripts.filter((s) => !d.scripts.some((r) => r.id === s.id && r.version === s.version));
  if (bad.length === 0) return undefined;
  return platformError(
    400,
    'validation_error',
    'Script is not registered at this version',
    bad.map((s) => ({ param: 'scripts.id', description: `${s.id}@${s.version}` })),
  );
}

const blockView = (b: CustomCodeBlock | null | undefined) => ({
  scripts: structuredClone(b?.scripts ?? []),
  createdOn: b?.createdOn ?? null,
  lastUpdated: b?.lastUpdated ?? null,
});

function writeBlock(
  ctx: RouteContext,
  d: SiteData,
  current: CustomCodeBlock | null | undefined,
  save: (b: CustomCodeBlock) => void,
): SimResponse {
  const body = parseBody(ctx.req, applyBody);
  if (!body.ok) return body.response;
  const bad = unregistered(d, body.value.scripts);
  if (bad) return bad;
  const now = iso(ctx.state.now());
  const block = { scripts: body.value.scripts, createdOn: current?.createdOn ?? now, lastUpdated: now };
  save(block);
  return json(200, blockView(block));
}

function withPageSite(ctx: RouteContext, then: (pageId: string, d: SiteData) => SimResponse): SimResponse {
  const page = findPage(ctx, ctx.req.params.pageId);
  return page.ok ? then(page.value.id, siteData(ctx.state, page.value.siteId)) : page.response;
}

function register(ctx: RouteContext, schema: typeof hostedBody | typeof inlineBody): SimResponse {
  return withSite(ctx, (site, d) => {
    const body = parseBody(ctx.req, schema);
    if (!body.ok) return body.response;
    const v = body.value as z.infer<typeof hostedBody> & z.infer<typeof inlineBody>;
    const id = slugify(v.displayName);
    if (d.scripts.some((s) => s.id === id && s.version === v.version)) {
      return platformError(409, 'conflict', `Script ${id} is already registered at version ${v.version}`);
    }
    const now = iso(ctx.state.now());
    const script = {
      id,
      displayName: v.displayName,
      version: v.version,
      canCopy: v.canCopy,
      integrityHash: v.integrityHash ?? null,
      hostedLocation: v.hostedLocation ?? `https://cdn.sim.test/${site.id}/${id}-${v.version}.js`,
      sourceCode: v.sourceCode,
      createdOn: now,
      lastUpdated: now,
    };
    d.scripts.push(script);
    const { sourceCode: _code, ...view } = script;
    return json(201, view);
  });
}

const SITE_CODE = /^\/sites\/(?<siteId>[^/]+)\/custom_code$/;
const PAGE_CODE = /^\/pages\/(?<pageId>[^/]+)\/custom_code$/;

export const customCodeRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/registered_scripts$/,
    scope: 'custom_code:read',
    handle: (ctx) => withSite(ctx, (_s, d) => json(200, { registeredScripts: d.scripts.map(({ sourceCode: _c, ...s }) => s) })),
  },
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/registered_scripts\/hosted$/,
    scope: 'custom_code:write',
    handle: (ctx) => register(ctx, hostedBody),
  },
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/registered_scripts\/inline$/,
    scope: 'custom_code:write',
    handle: (ctx) => register(ctx, inlineBody),
  },
  {
    method: 'GET',
    pattern: SITE_CODE,
    scope: 'custom_code:read',
    handle: (ctx) => withSite(ctx, (_s, d) => json(200, blockView(d.siteCode))),
  },
  {
    method: 'PUT',
    pattern: SITE_CODE,
    scope: 'custom_code:write',
    handle: (ctx) =>
      withSite(ctx, (_s, d) =>
        writeBlock(ctx, d, d.siteCode, (b) => {
          d.siteCode = b;
        }),
      ),
  },
  {
    method: 'DELETE',
    pattern: SITE_CODE,
    scope: 'custom_code:write',
    handle: (ctx) =>
      withSite(ctx, (_s, d) => {
        d.siteCode = null;
        return { status: 204 };
      }),
  },
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/custom_code\/blocks$/,
    scope: 'custom_code:read',
    handle: (ctx) =>
      withSite(ctx, (site, d) => {
        const blocks = [
          ...(d.siteCode ? [{ siteId: site.id, type: 'site', ...blockView(d.siteCode) }] : []),
          ...[...d.pageCode].map(([pageId, b]) => ({ siteId: site.id, pageId, type: 'page', ...blockView(b) })),
        ];
        return json(200, { blocks, pagination: { limit: 100, offset: 0, total: blocks.length } });
      }),
  },
  {
    method: 'GET',
    pattern: PAGE_CODE,
    scope: 'custom_code:read',
    handle: (ctx) => withPageSite(ctx, (pageId, d) => json(200, blockView(d.pageCode.get(pageId)))),
  },
  {
    method: 'PUT',
    pattern: PAGE_CODE,
    scope: 'custom_code:write',
    handle: (ctx) => withPageSite(ctx, (pageId, d) => writeBlock(ctx, d, d.pageCode.get(pageId), (b) => d.pageCode.set(pageId, b))),
  },
  {
    method: 'DELETE',
    pattern: PAGE_CODE,
    scope: 'custom_code:write',
    handle: (ctx) =>
      withPageSite(ctx, (pageId, d) => {
        d.pageCode.delete(pageId);
        return { status: 204 };
      }),
  },
];
