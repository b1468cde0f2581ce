import http from 'node:http';
import type { AppDeps } from '../deps';
import { answerClientError } from '../http/clientErrors';
import { endEventStreams } from '../http/eventStream';
import type { RouteDef } from '../http/route';
import { createApp } from './app';

/** The API's HTTP server around the Koa app; what the HTTP parser refuses gets the same JSON error body too. */
export function createApiServer(deps: AppDeps, extraRoutes: RouteDef[] = []): http.Server {
  const app = createApp(deps, extraRoutes);
  const server = http.createServer(app.callback());
  // Open event streams would hold a draining server open until its drain timeout: they end when it stops listening.
  const close = server.close.bind(server);
  server.close = ((callback?: (err?: Error) => void) => {
    endEventStreams(app);
    return close(callback);
  }) as typeof server.close;
  server.on('clientError', answerClientError(deps.logger));
  return server;
}
