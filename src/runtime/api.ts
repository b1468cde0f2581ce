import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppDeps } from '../deps';
import { startApiCompanions } from '../app/apiCompanions';
import { createApiServer } from '../app/server';
import { CliError } from './errors';

export interface RunningApi {
  /** The URL clients use: a wildcard host is shown as 127.0.0.1. */
  url: string;
  /** Stops taking connections, lets in-flight requests finish within `drainMs`, then cuts what is left. */
  stop(drainMs: number): Promise<{ forced: boolean }>;
}

export async function startApi(deps: AppDeps, host: string, port: number): Promise<RunningApi> {
  const server = createApiServer(deps);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new CliError(`PORT: ${host}:${port} is already in use; set PORT to a free port (PORT=0 picks one)`)
          : err.code === 'EADDRNOTAVAIL'
            ? new CliError(`HOST: ${host} is not an address of this machine`)
            : err,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const companions = startApiCompanions(deps);
  const stop = async (drainMs: number) => {
    const closed = await closeServer(server, drainMs);
    await companions.stop();
    return closed;
  };
  return { url: `http://${shownHost}:${address.port}`, stop };
}

/** Stops taking connections, closes idle keep-alive sockets, waits up to `drainMs` for in-flight requests, then cuts them. */
export async function closeServer(server: http.Server, drainMs: number): Promise<{ forced: boolean }> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive sockets that sit idle would hold `close` open; those that finish a request become idle too.
  server.closeIdleConnections();
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), drainMs);
    }),
  ]);
  clearInterval(sweeper);
  clearTimeout(timer);
  if (drained) return { forced: false };
  server.closeAllConnections();
  await closed;
  return { forced: true };
}

/** How long in-flight requests get to finish once a stop begins. */
export const API_DRAIN_MS = 10_000;

export async function stopApi(api: RunningApi, logger: { warn(msg: string): void }): Promise<void> {
  const { forced } = await api.stop(API_DRAIN_MS);
  if (forced) logger.warn(`requests still running after ${API_DRAIN_MS} ms were cut off`);
}
