import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../src/config';
import type { AppDeps } from '../../src/deps';
import { createApp } from '../../src/app/app';
import { closeAgentKeyCache } from '../../src/auth/agentKeyRuntime';
import { closeEmailRuntime } from '../../src/email/keys/runtime';
import { createMetrics } from '../../src/http/metrics';
import type { RouteDef } from '../../src/http/route';
import type { Logger } from '../../src/logger';
import { callAt, type CallOptions, type CallResult } from './http';
import { harness } from './harness';

export interface PrivateApp {
  baseUrl: string;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

/**
 * The real app, built from the harness's database and Temporal, with test-only routes and config overrides,
 * on its own loopback port. For rules that need a route or a configuration the product does not mount.
 */
export async function startPrivateApp(
  routes: RouteDef[],
  overrides: {
    config?: Partial<Config>;
    logger?: Logger;
    taskQueue?: string;
    /** PUBLIC_APP_URL is this app's own URL (platforms call back here, not the harness app). */
    selfPublicUrl?: boolean;
  } = {},
): Promise<PrivateApp> {
  const base = harness().deps;
  const deps: AppDeps = {
    ...base,
    config: { ...base.config, ...overrides.config },
    // Jobs this app starts run on this task queue (a test worker's), the harness worker's by default.
    temporal: { ...base.temporal, taskQueue: overrides.taskQueue ?? base.temporal.taskQueue },
    logger: overrides.logger ?? base.logger,
    metrics: createMetrics(false),
  };
  const server: Server = createApp(deps, routes).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (overrides.selfPublicUrl) deps.config.PUBLIC_APP_URL = baseUrl;
  return {
    baseUrl,
    call: (method, path, options) => callAt(baseUrl, method, path, options),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      // Its own LISTEN connections: left open, every private app of a run would hold two until the run ends.
      await closeEmailRuntime(deps);
      await closeAgentKeyCache(deps);
    },
  };
}
