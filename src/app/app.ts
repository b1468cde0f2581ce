import type Koa from 'koa';
import { routeAuth } from '../auth/routeAuth';
import type { AppDeps } from '../deps';
import { createHttpApp } from '../http/app';
import type { RouteDef } from '../http/route';
import { apiRoutes } from './routes';

/** The API's Koa app: every route of the route table (plus `extraRoutes`, e.g. tests' own), behind the one authentication. */
export function createApp(deps: AppDeps, extraRoutes: RouteDef[] = []): Koa {
  const routes: RouteDef[] = [...apiRoutes(() => routes), ...extraRoutes];
  return createHttpApp(deps, routes, routeAuth);
}
