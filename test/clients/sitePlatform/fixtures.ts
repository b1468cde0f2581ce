import assert from 'node:assert/strict';
import { ApiError } from '../../../src/http/errors';
import {
  startSitePlatformSimulator,
  type SimCollection,
  type SimSite,
  type SitePlatformSimulator,
} from '../../../src/sandbox/sitePlatform';
import {
  createSitePlatformClient,
  TokenBucket,
  type SitePlatformClient,
  type SitePlatformClientOptions,
} from '../../../src/clients/sitePlatform';

export const APP = { clientId: 'site-app-1', clientSecret: 'site-app-secret-1', redirectUri: 'https://app.example.test/cb' };
export const SCOPES = ['sites:read', 'sites:write', 'pages:read', 'pages:write', 'cms:read', 'cms:write', 'authorized_user:read'];

export interface World {
  sim: SitePlatformSimulator;
  site: SimSite;
  blog: SimCollection;
  /** Drives the simulator's rate-limit windows and the client's bucket alike. */
  clock: { now: number; advance(ms: number): void };
  token: string;
  client(overrides?: Partial<SitePlatformClientOptions>): SitePlatformClient;
  bucket(perMinute?: number): TokenBucket;
  /** Requests the simulator saw for this path since the index. */
  seen(path: string, since?: number): Array<{ method: string; status: number }>;
  /** Spends the token's whole simulator window by calling it directly. */
  exhaust(token?: string): Promise<void>;
}

export async function world(): Promise<World> {
  const clock = {
    now: Date.UTC(2026, 0, 1),
    advance(ms: number) {
      this.now += ms;
    },
  };
  const now = () => clock.now;
  const sim = await startSitePlatformSimulator({ now });
  sim.addApp(APP);
  const site = sim.addSite({ displayName: 'Maple Studio', workspaceId: 'ws-maple', customDomains: ['www.maple.test'] });
  const blog = sim.addCollection(site.id, { displayName: 'Blog Posts', singularName: 'Blog Post' });
  sim.addItems(blog.id, 2);
  const token = sim.issueToken({ scopes: SCOPES });
  const bucket = (perMinute = 60) => new TokenBucket(perMinute, now);
  return {
    sim,
    site,
    blog,
    clock,
    token,
    bucket,
    client: (overrides = {}) => createSitePlatformClient({ apiUrl: sim.baseUrl, token, timeoutMs: 2000, bucket: bucket(), ...overrides }),
    seen: (path, since = 0) =>
      sim
        .requests()
        .slice(since)
        .filter((r) => r.path === path)
        .map(({ method, status }) => ({ method, status })),
    async exhaust(t = token) {
      for (;;) {
        const res = await fetch(`${sim.baseUrl}/v2/sites`, { headers: { authorization: `Bearer ${t}` } });
        await res.arrayBuffer();
        if (res.status === 429) return;
      }
    },
  };
}

/** Awaits a rejection with the given status and code; checks the token is nowhere in it. */
export async function rejectsWith(promise: Promise<unknown>, status: number, code: string, token?: string): Promise<ApiError> {
  const err = await promise.then(
    () => assert.fail(`expected ${status} ${code}`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError, `not an ApiError: ${String(err)}`);
  assert.deepEqual([err.status, err.code], [status, code], err.message);
  if (token) assert.ok(!JSON.stringify({ m: err.message, e: err.extra, s: err.stack }).includes(token), 'the token leaked into the error');
  return err;
}
