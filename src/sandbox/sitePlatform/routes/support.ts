/** Shared handler steps for the site-scoped families: find the site, plan and ecommerce checks, object lookup. */
import { platformError, type SimResponse } from '../http';
import { findSite } from '../lookup';
import type { RouteContext } from '../router';
import { findInSites, siteData, type SiteData } from '../siteData';
import type { SimSite } from '../state';

export type SiteHandler = (site: SimSite, data: SiteData) => SimResponse;

export function withSite(ctx: RouteContext, then: SiteHandler): SimResponse {
  const site = findSite(ctx, ctx.req.params.siteId);
  return site.ok ? then(site.value, siteData(ctx.state, site.value.id)) : site.response;
}

export function enterpriseSite(ctx: RouteContext, then: SiteHandler): SimResponse {
  return withSite(ctx, (site, data) =>
    data.enterprise
      ? then(site, data)
      : platformError(402, 'not_enterprise_plan_site', 'This endpoint is only available to sites on an Enterprise plan'),
  );
}

export function ecommerceSite(ctx: RouteContext, then: SiteHandler): SimResponse {
  return withSite(ctx, (site, data) =>
    data.ecommerce ? then(site, data) : platformError(409, 'ecommerce_not_enabled', 'Ecommerce is not enabled for this site'),
  );
}

/** An object held under some site, found by id and visible only when the token can see that site. */
export function findOwned<T>(
  ctx: RouteContext,
  what: string,
  pick: (d: SiteData) => T | undefined,
): { ok: true; siteId: string; value: T } | { ok: false; response: SimResponse } {
  const hit = findInSites(ctx.state, pick);
  if (!hit || !ctx.token.siteIds.includes(hit.siteId))
    return { ok: false, response: platformError(404, 'resource_not_found', `${what} not found`) };
  return { ok: true, ...hit };
}

export const missing = (what: string): SimResponse => platformError(404, 'resource_not_found', `${what} not found`);
