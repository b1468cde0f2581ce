import Koa, { type Context, type Next } from 'koa';
import type { AppDeps } from '../deps';
import { ApiError, errorRenderer } from './errors';
import { assignRequestId, requestRecorder } from './requestContext';
import { groupedRouter } from './routerGroups';
import type { RouteDef } from './route';
import type { RouteAuth } from './routeAuth';
import { clientAddressResolver } from './trustProxy';

/**
 * The Koa app: one request envelope (client address from TRUST_PROXY, request id, errors, access log and metrics),
 * then the routes (each reads its own body), every one authenticated by `auth`. The composition root (src/app/app.ts)
 * says which routes.
 */
export function createHttpApp(deps: AppDeps, routes: RouteDef[], auth: RouteAuth): Koa {
  const app = new Koa({ proxy: deps.config.TRUST_PROXY !== false });
  app.silent = true; // the error renderer logs; Koa's own stderr dump would repeat it

  app.use(requestEnvelope(deps));
  app.use(groupedRouter(routes, deps, auth));
  return app;
}

/**
 * Everything a request gets around its route, in one middleware rather than one per concern (every async layer costs
 * each request its promises): the client address and request id first, then the route; an error — or no route taking
 * the request — is rendered as its coded body, and the finished request is logged and measured with its final status.
 */
function requestEnvelope(deps: AppDeps) {
  const assignClientAddress = clientAddressResolver(deps.config.TRUST_PROXY);
  const renderError = errorRenderer(deps.logger);
  const recordRequest = requestRecorder(deps.logger, deps.metrics);
  return async function envelope(ctx: Context, next: Next) {
    const started = process.hrtime.bigint();
    try {
      assignClientAddress(ctx);
      assignRequestId(ctx);
      await next();
      refuseUnmatched(ctx);
    } catch (err) {
      renderError(ctx, err);
    } finally {
      recordRequest(ctx, started);
    }
  };
}

/**
 * A request no route took is 405 `method_not_allowed` when its path exists under another method (the router has set
 * `Allow`), else 404 `route_not_found`. It runs after the router's own method check, which only looks at the
 * response once everything below it has returned.
 */
function refuseUnmatched(ctx: Context): void {
  if (ctx._matchedRoute !== undefined || (ctx.status !== 404 && ctx.status !== 405 && ctx.status !== 501)) return;
  const allow = ctx.response.get('Allow');
  if (allow) throw new ApiError(405, 'method_not_allowed', `${ctx.path} does not take ${ctx.method}; allowed: ${allow}`);
  ctx.remove('Allow');
  throw new ApiError(404, 'route_not_found', `no route ${ctx.method} ${ctx.path}`);
}
