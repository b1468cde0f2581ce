/** Components: list per site, body DOM and properties per locale (secondary-locale writes only). */
import { json, parseBody, type SimResponse } from '../http';
import type { Route, RouteContext } from '../router';
import type { SiteData, SimComponent } from '../siteData';
import type { SimSite } from '../state';
import {
  applyNodeWrites,
  applyPropertyWrites,
  localeCopy,
  nodeWrites,
  pagedNodes,
  propertyWrites,
  readableLocale,
  readRows,
  writableLocale,
} from './content';
import { missing, withSite } from './support';

function withComponent(ctx: RouteContext, then: (site: SimSite, c: SimComponent, d: SiteData) => SimResponse): SimResponse {
  return withSite(ctx, (site, d) => {
    const component = d.components.find((c) => c.id === ctx.req.params.componentId);
    return component ? then(site, component, d) : missing('Component');
  });
}

const DOM = /^\/sites\/(?<siteId>[^/]+)\/components\/(?<componentId>[^/]+)\/dom$/;
const PROPS = /^\/sites\/(?<siteId>[^/]+)\/components\/(?<componentId>[^/]+)\/properties$/;

export const componentRoutes: Route[] = [
  {
    method: 'GET',
    pattern: /^\/sites\/(?<siteId>[^/]+)\/components$/,
    scope: 'components:read',
    handle: (ctx) =>
      withSite(ctx, (_s, d) =>
        pagedNodes(
          ctx.req.query,
          d.components.map(({ id, name, group, description, readonly }) => ({ id, name, group, description, readonly })),
          'components',
          {},
        ),
      ),
  },
  {
    method: 'GET',
    pattern: DOM,
    scope: 'components:read',
    handle: (ctx) =>
      withComponent(ctx, (site, c) => {
        const locale = readableLocale(site, ctx.req.query.get('localeId'));
        if (!locale.ok) return locale.response;
        return pagedNodes(ctx.req.query, readRows(c.dom, site.locales.primary.id, locale.localeId), 'nodes', { componentId: c.id });
      }),
  },
  {
    method: 'POST',
    pattern: DOM,
    scope: 'components:write',
    handle: (ctx) =>
      withComponent(ctx, (site, c) => {
        const locale = writableLocale(site, ctx.req.query.get('localeId'));
        if (!locale.ok) return locale.response;
        const body = parseBody(ctx.req, nodeWrites);
        if (!body.ok) return body.response;
        return json(200, { errors: applyNodeWrites(localeCopy(c.dom, site.locales.primary.id, locale.localeId), body.value.nodes) });
      }),
  },
  {
    method: 'GET',
    pattern: PROPS,
    scope: 'components:read',
    handle: (ctx) =>
      withComponent(ctx, (site, c) => {
        const locale = readableLocale(site, ctx.req.query.get('localeId'));
        if (!locale.ok) return locale.response;
        return pagedNodes(ctx.req.query, readRows(c.properties, site.locales.primary.id, locale.localeId), 'properties', {
          componentId: c.id,
        });
      }),
  },
  {
    method: 'POST',
    pattern: PROPS,
    scope: 'components:write',
    handle: (ctx) =>
      withComponent(ctx, (site, c) => {
        const locale = writableLocale(site, ctx.req.query.get('localeId'));
        if (!locale.ok) return locale.response;
        const body = parseBody(ctx.req, propertyWrites);
        if (!body.ok) return body.response;
        return json(200, {
          errors: applyPropertyWrites(localeCopy(c.properties, site.locales.primary.id, locale.localeId), body.value.properties),
        });
      }),
  },
];
