import http from 'node:http';
import type { AppDeps } from '../deps';
import { answerClientError } from '../http/clientErrors';
import type { RouteDef } from '../http/route';
import { createApp } from './app';

/** The API's HTTP server around the Koa app; what the HTTP parser refuses gets the same JSON error body too. */
export function createApiServer(deps: AppDeps, extraRoutes: RouteDef[] = []): http.Server {
  const server = http.createServer(createApp(deps, extraRoutes).callback());
  server.on('clientError', answerClientError(deps.logger));
  return server;
}
