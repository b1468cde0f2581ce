import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps } from '../deps';
import { captureRawBody } from './body';
import { ApiError, errorMiddleware } from './errors';
import { mountRoutes } from './mount';
import { accessLog, requestId } from './requestContext';
import type { RouteDef } from './route';
import { apiRoutes } from './routes';

/** The Koa app: request id, access log and metrics, errors, body capture, then the routes. */
export function createApp(deps: AppDeps, extraRoutes: RouteDef[] = []): Koa {
  const app = new Koa({ proxy: true });
  app.silent = true; // the error middleware logs; Koa's own stderr dump would repeat it
  const routes: RouteDef[] = [...apiRoutes(() => routes), ...extraRoutes];

  const router = new Router();
  mountRoutes(router, routes, deps);

  app.use(requestId());
  app.use(accessLog(deps.logger, deps.metrics));
  app.use(errorMiddleware(deps.logger));
  app.use(captureRawBody(deps.config.BODY_LIMIT_BYTES));
  app.use(router.routes());
  app.use(router.allowedMethods({
    throw: true,
    methodNotAllowed: () => new ApiError(405, 'method_not_allowed', 'this route does not take that method'),
    notImplemented: () => new ApiError(405, 'method_not_allowed', 'this method is not supported'),
  }));
  app.use(async (ctx) => {
    throw new ApiError(404, 'route_not_found', `no route ${ctx.method} ${ctx.path}`);
  });
  return app;
}
