import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { hasNoBody, NO_BODY, parseJsonBody, readRawBody } from './body';
import { requestHash, validIdempotencyKey, withIdempotency } from './idempotency';
import { koaPath, type RouteDef, type RouteResult } from './route';
import type { RouteAuth } from './routeAuth';
import { validatePart } from './validate';

/**
 * The router's precedence, whatever order the areas list their routes in: @koa/router runs the matching routes in
 * registration order and the first handler answers, so routes are registered most specific first. Comparing two
 * paths segment by segment, a literal segment comes before a parameter at the first place they differ in kind
 * (`/content/calendar` before `/content/{id}`, `/jobs/{id}/replay` before `/jobs/{id}/{action}`); the original order
 * only breaks ties between paths no request can match both of.
 */
export function literalPathsFirst(routes: RouteDef[]): RouteDef[] {
  return routes
    .map((r, i) => ({ r, i, segments: r.spec.path.split('/') }))
    .sort((a, b) => comparePrecedence(a.segments, b.segments) || a.i - b.i)
    .map(({ r }) => r);
}

/**
 * A total order on paths, segment by segment: a literal before a parameter, literals alphabetically (two different
 * literals never match the same request, so this only keeps the order consistent), then the shorter path.
 */
export function comparePrecedence(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const aParam = a[i].startsWith('{');
    const bParam = b[i].startsWith('{');
    if (aParam !== bParam) return aParam ? 1 : -1;
    if (!aParam && a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

/** A route as mounted: its Koa path (`/a/:id`) and the handler that answers it. */
export interface MountedRoute {
  method: RouteDef['spec']['method'];
  koaPath: string;
  handle(ctx: Context): Promise<void>;
}

/**
 * Order per request: authenticate (401/403), read the body (413), validate (400), then the handler, behind
 * Idempotency-Key when the route takes one. Answers what it mounted.
 */
export function mountRoutes(router: Router, routes: RouteDef[], deps: AppDeps, routeAuth: RouteAuth): MountedRoute[] {
  return literalPathsFirst(routes).map(({ spec, handler }) => {
    const mounted: MountedRoute = {
      method: spec.method,
      koaPath: koaPath(spec.path),
      handle: async (ctx: Context) => {
        const auth = (spec.ownCredential && (await spec.ownCredential(ctx, deps))) || (await routeAuth.authenticate(spec.auth, ctx, deps));
        const rawBody = hasNoBody(ctx) ? NO_BODY : await readRawBody(ctx, spec.maxBodyBytes ?? deps.config.BODY_LIMIT_BYTES);
        // The HTTP parser refuses control bytes in the target and reads the rest as Latin-1, so a path or query
        // string carries U+0000 or a lone surrogate only through a %-escape: without one, there is nothing to walk.
        const params = spec.params ? validatePart('params', spec.params, ctx.params, ctx.path.includes('%')) : undefined;
        const query = spec.query ? validatePart('query', spec.query, ctx.query, ctx.querystring.includes('%')) : undefined;
        // JSON can carry U+0000 or a lone surrogate only as a \u escape (invalid UTF-8 bytes decode to U+FFFD),
        // so a body without one needs no walk.
        const body =
          spec.body && !spec.rawBody ? validatePart('body', spec.body, parseJsonBody(ctx, rawBody), rawBody.includes('\\u')) : undefined;
        const input = { params, query, body, rawBody, auth, deps, ctx, requestId: ctx.state.requestId as string };

        const key = spec.idempotent ? ctx.get('idempotency-key') : '';
        const result = key
          ? await withIdempotency(
              deps.db,
              deps.secretHashKey,
              {
                accountId: routeAuth.accountOf(auth),
                route: `${spec.method.toUpperCase()} ${ctx.path}`,
                key: validIdempotencyKey(key),
                requestHash: requestHash({ params, query, body }),
              },
              () => handler(input),
            )
          : await handler(input);
        respond(ctx, result);
      },
    };
    router[spec.method](mounted.koaPath, mounted.handle);
    return mounted;
  });
}

function respond(ctx: Context, result: RouteResult): void {
  if (result.headers) ctx.set(result.headers);
  ctx.status = result.status ?? (result.body === undefined ? 204 : 200);
  if (result.body !== undefined) ctx.body = result.body;
}
