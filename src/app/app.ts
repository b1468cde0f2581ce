import type Koa from 'koa';
import { routeAuth } from '../auth/routeAuth';
import type { AppDeps } from '../deps';
import { createHttpApp } from '../http/app';
import type { RouteDef } from '../http/route';
import { primeKnownSeries } from '../telemetry/metricsKnownSeries';
import { apiRoutes } from './routes';

/**
 * The API's Koa app: every route of the route table (plus `extraRoutes`, e.g. tests' own), behind the one
 * authentication. Its `/metrics` shows the series known in advance (its schedules' runs, …) at 0 from the start.
 */
export function createApp(deps: AppDeps, extraRoutes: RouteDef[] = []): Koa {
  const routes: RouteDef[] = [...apiRoutes(() => routes), ...extraRoutes];
  primeKnownSeries(deps.schedules.map((s) => s.name));
  return createHttpApp(deps, routes, routeAuth);
}
