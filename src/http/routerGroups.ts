import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import type { AppDeps } from '../deps';
import { mountRoutes, type MountedRoute } from './mount';
import type { RouteDef } from './route';
import type { RouteAuth } from './routeAuth';

/**
 * The literal head of a path — its first two segments when both are literal, else its first one — so a request is
 * matched only against the routes that share it (a few dozen) instead of every route of the API. A first segment
 * under which any route has a parameter in second place keeps all its routes in one group, so no request can miss
 * a route that would have matched.
 */
function headOf(segments: string[], splitFirst: boolean): string {
  return splitFirst && segments.length > 1 ? `${segments[0]}/${segments[1]}` : (segments[0] ?? '');
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string | undefined) => segment !== undefined && segment.includes('{');

/**
 * One @koa/router per path head, each with its own 405 handling (`allowedMethods`), dispatched by the request's
 * head. The routes, their order within a head (literal paths first) and every answer stay what one router gives.
 */
export function groupedRouter(routes: RouteDef[], deps: AppDeps, auth: RouteAuth): Middleware {
  const bySegment = new Map<string, RouteDef[]>();
  for (const r of routes) {
    const first = segmentsOf(r.spec.path)[0] ?? '';
    bySegment.set(first, [...(bySegment.get(first) ?? []), r]);
  }
  const groups = new Map<string, [Middleware, Middleware]>();
  const literals = new Map<string, MountedRoute>();
  const unsplit = new Set<string>();
  for (const [first, members] of bySegment) {
    const splitFirst = !isParam(first) && !members.some((r) => isParam(segmentsOf(r.spec.path)[1]) || segmentsOf(r.spec.path).length < 2);
    if (!splitFirst) unsplit.add(first);
    const byHead = new Map<string, RouteDef[]>();
    for (const r of members) {
      const head = headOf(segmentsOf(r.spec.path), splitFirst);
      byHead.set(head, [...(byHead.get(head) ?? []), r]);
    }
    for (const [head, headRoutes] of byHead) {
      const router = new Router();
      for (const mounted of mountRoutes(router, headRoutes, deps, auth)) {
        if (mounted.koaPath.includes(':')) continue;
        // @koa/router answers HEAD with the GET route; the first route registered for a method and path answers it.
        const methods = mounted.method === 'get' ? ['GET', 'HEAD'] : [mounted.method.toUpperCase()];
        for (const method of methods) {
          const key = `${method} ${mounted.koaPath}`;
          if (!literals.has(key)) literals.set(key, mounted);
        }
      }
      groups.set(head, [router.routes() as unknown as Middleware, router.allowedMethods() as unknown as Middleware]);
    }
  }
  return async function dispatchByHead(ctx: Context, next: Next) {
    // A request for exactly a parameterless route's path is that route's (it is registered before every route with
    // parameters that could also match): it needs none of the router's per-request matching. Anything else —
    // another case, a trailing slash, a %-escape, a route with parameters, a wrong method — goes to the router.
    const literal = literals.get(`${ctx.method} ${ctx.path}`);
    if (literal) {
      ctx.params = {};
      ctx._matchedRoute = literal.koaPath;
      return literal.handle(ctx);
    }
    const segments = segmentsOf(ctx.path);
    const first = segments[0] ?? '';
    const group = groups.get(headOf(segments, !unsplit.has(first)));
    if (!group) return next();
    const [routes, allowed] = group;
    return routes(ctx, () => allowed(ctx, next));
  };
}
