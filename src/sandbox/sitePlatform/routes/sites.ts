/** Sites: list, get, custom domains, and publish (one successful publish per site per minute). */
import { z } from 'zod';
import { emitSitePublish, subdomainHost } from '../events';
import { json, parseBody, platformError } from '../http';
import { findSite } from '../lookup';
import type { Route } from '../router';
import { iso, type SimSite } from '../state';

const PUBLISH_COOLDOWN_MS = 60_000;

const publishBody = z
  .object({
    customDomains: z.array(z.string()).optional(),
    publishToWebflowSubdomain: z.boolean().optional(),
  })
  .refine((b) => b.customDomains !== undefined || b.publishToWebflowSubdomain !== undefined, {
    message: 'Include customDomains or publishToWebflowSubdomain',
  });

export function siteView(site: SimSite): Record<string, unknown> {
  const { plan: _plan, lastPublishAt: _at, ...rest } = site;
  return structuredClone({ ...rest, customDomains: site.customDomains.map(({ id, url, lastPublished }) => ({ id, url, lastPublished })) });
}

export const siteRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites$/,
    scope: 'sites:read',
    handle: ({ state, token }) =>
      json(200, {
        sites: token.siteIds
          .map((id) => state.sites.get(id))
          .filter((s) => s !== undefined)
          .map(siteView),
      }),
  },
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)$/,
    scope: 'sites:read',
    handle: (ctx) => {
      const site = findSite(ctx, ctx.req.params.siteId);
      return site.ok ? json(200, siteView(site.value)) : site.response;
    },
  },
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/custom_domains$/,
    scope: 'sites:read',
    handle: (ctx) => {
      const site = findSite(ctx, ctx.req.params.siteId);
      return site.ok ? json(200, { customDomains: siteView(site.value).customDomains }) : site.response;
    },
  },
  {
    method: 'POST',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/publish$/,
    scope: 'sites:write',
    handle: (ctx) => {
      const found = findSite(ctx, ctx.req.params.siteId);
      if (!found.ok) return found.response;
      const body = parseBody(ctx.req, publishBody);
      if (!body.ok) return body.response;
      const site = found.value;
      const now = ctx.state.now();
      if (site.lastPublishAt !== undefined && now - site.lastPublishAt < PUBLISH_COOLDOWN_MS) {
        const wait = Math.ceil((site.lastPublishAt + PUBLISH_COOLDOWN_MS - now) / 1000);
        const limited = platformError(429, 'too_many_requests', 'Site publish is limited to one successful publish per minute');
        return { ...limited, headers: { 'retry-after': String(wait) } };
      }
      const wanted = body.value.customDomains ?? [];
      const unknown = wanted.filter((id) => !site.customDomains.some((d) => d.id === id));
      if (unknown.length > 0) {
        return platformError(
          400,
          'validation_error',
          'Unknown custom domain',
          unknown.map((id) => ({ param: 'customDomains', description: id })),
        );
      }
      const at = iso(now);
      site.lastPublishAt = now;
      site.lastPublished = at;
      const published = site.customDomains.filter((d) => wanted.includes(d.id));
      for (const d of published) d.lastPublished = at;
      // A site publish takes every staged (not draft, not archived) item live.
      for (const c of ctx.state.collections.values()) {
        if (c.siteId !== site.id) continue;
        for (const item of c.items) if (!item.isDraft && !item.isArchived) item.lastPublished = at;
      }
      const subdomain = body.value.publishToWebflowSubdomain ? [subdomainHost(site)] : [];
      emitSitePublish(ctx.state, site, at, [...published.map((d) => d.url), ...subdomain]);
      return json(202, {
        customDomains: published.map(({ id, url, lastPublished }) => ({ id, url, lastPublished })),
        publishToWebflowSubdomain: body.value.publishToWebflowSubdomain ?? false,
      });
    },
  },
];
