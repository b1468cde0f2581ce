import http from 'node:http';
import type { AppDeps } from '../deps';
import { createApp } from './app';
import { answerClientError } from './clientErrors';
import type { RouteDef } from './route';

/** The API's HTTP server around the Koa app; what the HTTP parser refuses gets the same JSON error body too. */
export function createApiServer(deps: AppDeps, extraRoutes: RouteDef[] = []): http.Server {
  const server = http.createServer(createApp(deps, extraRoutes).callback());
  server.on('clientError', answerClientError(deps.logger));
  return server;
}
