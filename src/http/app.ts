import Koa, { type Context, type Next } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError, errorMiddleware } from './errors';
import { accessLog, requestId } from './requestContext';
import { groupedRouter } from './routerGroups';
import type { RouteDef } from './route';
import type { RouteAuth } from './routeAuth';
import { resolveClientAddress } from './trustProxy';

/**
 * The Koa app: client address (TRUST_PROXY), request id, access log and metrics, errors, then the routes (each reads
 * its own body), every one authenticated by `auth`. The composition root (src/app/app.ts) says which routes.
 */
export function createHttpApp(deps: AppDeps, routes: RouteDef[], auth: RouteAuth): Koa {
  const app = new Koa({ proxy: deps.config.TRUST_PROXY !== false });
  app.silent = true; // the error middleware logs; Koa's own stderr dump would repeat it

  app.use(resolveClientAddress(deps.config.TRUST_PROXY));
  app.use(requestId());
  app.use(accessLog(deps.logger, deps.metrics));
  app.use(errorMiddleware(deps.logger));
  app.use(unmatchedRoutes());
  app.use(groupedRouter(routes, deps, auth));
  return app;
}

/**
 * Wraps the router: a request no route took is 405 `method_not_allowed` when its path exists under another method
 * (the router has set `Allow`), else 404 `route_not_found`. It must run after the router's own method check,
 * which only looks at the response once everything below it has returned.
 */
function unmatchedRoutes() {
  return async function answerUnmatched(ctx: Context, next: Next) {
    await next();
    if (ctx._matchedRoute !== undefined || (ctx.status !== 404 && ctx.status !== 405 && ctx.status !== 501)) return;
    const allow = ctx.response.get('Allow');
    if (allow) throw new ApiError(405, 'method_not_allowed', `${ctx.path} does not take ${ctx.method}; allowed: ${allow}`);
    ctx.remove('Allow');
    throw new ApiError(404, 'route_not_found', `no route ${ctx.method} ${ctx.path}`);
  };
}
