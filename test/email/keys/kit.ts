import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { Config } from '../../../src/config';
import type { AppDeps } from '../../../src/deps';
import type { EmailScope } from '../../../src/auth/types';
import { assertKeyActive } from '../../../src/email/keys/authenticate';
import { closeEmailRuntime, emailRuntime } from '../../../src/email/keys/runtime';
import { createEmailKey, type NewEmailKey } from '../../../src/email/keys/service';
import { admitSends } from '../../../src/email/limits/admit';
import { recordSends } from '../../../src/email/usage/record';
import { createApp } from '../../../src/app/app';
import { createMetrics } from '../../../src/http/metrics';
import { route, type RouteDef } from '../../../src/http/route';
import { eventually } from '../../jobs/jobTestKit';
import { harness } from '../../helpers/harness';
import { callAt, type CallOptions, type CallResult } from '../../helpers/http';

/** A request parked inside a handler, after authentication, until the test releases it. */
export class Gate {
  entered!: Promise<void>;
  private enter!: () => void;
  private open!: () => void;
  private opened!: Promise<void>;

  constructor() {
    this.entered = new Promise((resolve) => {
      this.enter = resolve;
    });
    this.opened = new Promise((resolve) => {
      this.open = resolve;
    });
  }

  async pass(): Promise<void> {
    this.enter();
    await this.opened;
  }
  release(): void {
    this.open();
  }
}

export const gates = new Map<string, Gate>();

/**
 * Probe routes an email key authenticates against (the send routes are another helper's): each takes a scope,
 * admits `count` sends through the limiter and records them, like a send does.
 */
function probeRoutes(): RouteDef[] {
  const probe = (scope: EmailScope, path: string) =>
    route(
      {
        method: 'post',
        path,
        operationId: `probe_${scope}`,
        summary: 'test probe',
        tags: ['test'],
        auth: { kind: 'emailKey', scope },
        body: z.strictObject({ count: z.number().int().min(1).default(1), gate: z.string().optional() }).default({ count: 1 }),
        responses: { 200: { description: 'ok', schema: z.object({ ok: z.literal(true) }) } },
      },
      async ({ deps, auth, body }) => {
        if (body.gate) await gates.get(body.gate)!.pass();
        const { headers } = await admitSends(deps, auth, body.count);
        assertKeyActive(auth);
        recordSends(auth, body.count);
        return { body: { ok: true as const }, headers };
      },
    );
  return [probe('email:send', '/test/email/probe/send'), probe('email:batch', '/test/email/probe/batch')];
}

export interface KeyApp {
  deps: AppDeps;
  baseUrl: string;
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>;
  /** Sends with a key through the probe route. */
  probe(
    token: string,
    options?: { count?: number; scope?: 'send' | 'batch'; headers?: Record<string, string>; gate?: string },
  ): Promise<CallResult>;
  close(): Promise<void>;
}

/** The real app as one API replica: its own deps object, so its own keyring, LISTEN connection, limiter and usage buffer. */
export async function startKeyApp(config: Partial<Config> = {}, overrides: Partial<Pick<AppDeps, 'logger'>> = {}): Promise<KeyApp> {
  const base = harness().deps;
  const deps: AppDeps = { ...base, ...overrides, config: { ...base.config, ...config }, metrics: createMetrics(false) };
  const server: Server = createApp(deps, probeRoutes()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = (method: string, path: string, options?: CallOptions) => callAt(baseUrl, method, path, options);
  return {
    deps,
    baseUrl,
    call,
    probe: (token, options = {}) =>
      call('POST', `/test/email/probe/${options.scope ?? 'send'}`, {
        token,
        headers: options.headers,
        body: { count: options.count ?? 1, gate: options.gate },
      }),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await closeEmailRuntime(deps);
    },
  };
}

/** Waits until the app LISTENs for key changes (its keyring caches only then). */
export async function listening(app: KeyApp): Promise<void> {
  await eventually(async () => emailRuntime(app.deps).keyring.caching, Boolean, 5_000, 'the key listener');
}

/** A key made through the service (as the other email tests do). */
export async function newEmailKey(accountId: string, input: Partial<NewEmailKey> = {}) {
  return createEmailKey(harness().deps, accountId, { name: 'test key', environment: 'test', scopes: ['email:send'], ...input });
}
