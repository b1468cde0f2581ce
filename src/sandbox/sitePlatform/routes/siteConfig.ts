/**
 * Enterprise-only site configuration: redirects, robots.txt, /.well-known files, llms.txt (beta) and the activity
 * log. A non-Enterprise site answers 402 not_enterprise_plan_site on every one of them.
 */
import { z } from 'zod';
import { json, parseBody } from '../http';
import { paginate, readPageQuery } from '../pagination';
import type { Route } from '../router';
import { newId } from '../state';
import type { RobotsRule } from '../siteData';
import { enterpriseSite, missing } from './support';

const REDIRECTS = /^\/sites\/(?<siteId>[^/]+)\/redirects$/;
const REDIRECT = /^\/sites\/(?<siteId>[^/]+)\/redirects\/(?<redirectId>[^/]+)$/;
const ROBOTS = /^\/sites\/(?<siteId>[^/]+)\/robots_txt$/;
const WELL_KNOWN = /^\/sites\/(?<siteId>[^/]+)\/well_known$/;
const LLMS = /^\/sites\/(?<siteId>[^/]+)\/llms_txt$/;

const path = z.string().regex(/^\//, 'must start with /');
const redirectBody = z.object({ fromUrl: path, toUrl: z.string().min(1) });
const rule = z.object({
  userAgent: z.string().min(1),
  allows: z.array(z.string()).default([]),
  disallows: z.array(z.string()).default([]),
});
const robotsBody = z.object({ rules: z.array(rule).default([]), sitemap: z.string().nullable().optional() });
const wellKnownBody = z.object({
  fileName: z.string().regex(/^[A-Za-z0-9._-]+$/),
  fileData: z.string().max(100_000),
  contentType: z.enum(['application/json', 'text/plain']).default('text/plain'),
});
const wellKnownDelete = z.object({ fileNames: z.array(z.string().min(1)).min(1) });
const llmsBody = z.object({ content: z.string().max(100_000) });

function mergeRules(current: RobotsRule[], incoming: RobotsRule[]): RobotsRule[] {
  const out = structuredClone(current);
  for (const r of incoming) {
    const same = out.find((o) => o.userAgent === r.userAgent);
    if (!same) {
      out.push(structuredClone(r));
      continue;
    }
    same.allows = [...new Set([...same.allows, ...r.allows])];
    same.disallows = [...new Set([...same.disallows, ...r.disallows])];
  }
  return out;
}

export const siteConfigRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/activity_logs$/,
    scope: 'site_activity:read',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const q = readPageQuery(ctx.req.query);
        if (!q.ok) return q.response;
        const page = paginate([...d.activity].reverse(), q.value);
        return json(200, { items: page.rows, pagination: page.pagination });
      }),
  },
  {
    method: 'GET',
    pattern: REDIRECTS,
    scope: 'sites:read',
    handle: (ctx) => enterpriseSite(ctx, (_s, d) => json(200, { redirects: structuredClone(d.redirects) })),
  },
  {
    method: 'POST',
    pattern: REDIRECTS,
    scope: 'sites:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const body = parseBody(ctx.req, redirectBody);
        if (!body.ok) return body.response;
        const redirect = { id: newId(), ...body.value };
        d.redirects.push(redirect);
        return json(200, redirect);
      }),
  },
  {
    method: 'PATCH',
    pattern: REDIRECT,
    scope: 'sites:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const redirect = d.redirects.find((r) => r.id === ctx.req.params.redirectId);
        if (!redirect) return missing('Redirect');
        const body = parseBody(ctx.req, redirectBody.partial());
        if (!body.ok) return body.response;
        Object.assign(redirect, body.value);
        return json(200, redirect);
      }),
  },
  {
    method: 'DELETE',
    pattern: REDIRECT,
    scope: 'sites:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const at = d.redirects.findIndex((r) => r.id === ctx.req.params.redirectId);
        if (at < 0) return missing('Redirect');
        d.redirects.splice(at, 1);
        return json(200, { redirects: structuredClone(d.redirects) });
      }),
  },
  {
    method: 'GET',
    pattern: ROBOTS,
    scope: 'site_config:read',
    handle: (ctx) => enterpriseSite(ctx, (_s, d) => json(200, d.robots ?? { rules: [], sitemap: null })),
  },
  {
    method: 'PUT',
    pattern: ROBOTS,
    scope: 'site_config:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const body = parseBody(ctx.req, robotsBody);
        if (!body.ok) return body.response;
        d.robots = { rules: body.value.rules, sitemap: body.value.sitemap ?? null };
        return json(200, d.robots);
      }),
  },
  {
    method: 'PATCH',
    pattern: ROBOTS,
    scope: 'site_config:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const body = parseBody(ctx.req, robotsBody);
        if (!body.ok) return body.response;
        const current = d.robots ?? { rules: [], sitemap: null };
        d.robots = {
          rules: mergeRules(current.rules, body.value.rules),
          sitemap: body.value.sitemap === undefined ? current.sitemap : body.value.sitemap,
        };
        return json(200, d.robots);
      }),
  },
  {
    method: 'DELETE',
    pattern: ROBOTS,
    scope: 'site_config:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        d.robots = null;
        return { status: 204 };
      }),
  },
  {
    method: 'PUT',
    pattern: WELL_KNOWN,
    scope: 'site_config:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const body = parseBody(ctx.req, wellKnownBody);
        if (!body.ok) return body.response;
        d.wellKnown.set(body.value.fileName, { fileData: body.value.fileData, contentType: body.value.contentType });
        return { status: 204 };
      }),
  },
  {
    method: 'DELETE',
    pattern: WELL_KNOWN,
    scope: 'site_config:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const body = parseBody(ctx.req, wellKnownDelete);
        if (!body.ok) return body.response;
        for (const name of body.value.fileNames) d.wellKnown.delete(name);
        return { status: 204 };
      }),
  },
  {
    method: 'GET',
    pattern: LLMS,
    scope: 'site_config:read',
    handle: (ctx) => enterpriseSite(ctx, (_s, d) => json(200, { content: d.llmsTxt ?? '' })),
  },
  {
    method: 'PATCH',
    pattern: LLMS,
    scope: 'site_config:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        const body = parseBody(ctx.req, llmsBody);
        if (!body.ok) return body.response;
        d.llmsTxt = body.value.content;
        return json(200, { content: d.llmsTxt });
      }),
  },
  {
    method: 'DELETE',
    pattern: LLMS,
    scope: 'site_config:write',
    handle: (ctx) =>
      enterpriseSite(ctx, (_s, d) => {
        d.llmsTxt = null;
        return { status: 204 };
      }),
  },
];
