import { randomBytes } from 'node:crypto';
import type { Config } from '../../../src/config';
import type { SitePlatformDeps } from '../../../src/sitePlatform/connections';
import { startSitePlatformSimulator, type SitePlatformSimulator } from '../../../src/sandbox/sitePlatform';
import { REQUESTED_SCOPES } from '../../../src/sitePlatform/connections/scopes';
import type { Logger } from '../../../src/logger';
import type { TestAccount } from '../../helpers/accounts';
import { harness } from '../../helpers/harness';
import { followConsent as followConsentTo } from '../../helpers/oauthConsent';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';

export const newKey = () => randomBytes(32).toString('base64');

/** The simulator and a private app whose site platform URLs point at it, with a token key set. */
export interface SiteWorld {
  sim: SitePlatformSimulator;
  app: PrivateApp;
  config: Partial<Config>;
  close(): Promise<void>;
}

export async function startSiteWorld(
  config: Partial<Config> = {},
  options: { sim?: SitePlatformSimulator; logger?: Logger; selfPublicUrl?: boolean } = {},
): Promise<SiteWorld> {
  const sim = options.sim ?? (await startSitePlatformSimulator());
  const full: Partial<Config> = {
    SITE_PLATFORM_API_URL: sim.baseUrl,
    SITE_PLATFORM_AUTH_URL: sim.baseUrl,
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY: newKey(),
    SITE_PLATFORM_TOKEN_ENCRYPTION_KEY_PREVIOUS: undefined,
    SITE_PLATFORM_CLIENT_ID: undefined,
    SITE_PLATFORM_CLIENT_SECRET: undefined,
    SITE_PLATFORM_TIMEOUT_MS: 2_000,
    ...config,
  };
  const app = await startPrivateApp([], { config: full, logger: options.logger, selfPublicUrl: options.selfPublicUrl });
  return {
    sim,
    app,
    config: full,
    close: async () => {
      await app.close();
      if (!options.sim) await sim.stop();
    },
  };
}

/** Service deps matching a world's configuration, with an injectable clock. */
export function depsOf(world: SiteWorld, now?: () => number): SitePlatformDeps {
  const base = harness().deps;
  return { db: base.db, logger: base.logger, secretHashKey: base.secretHashKey, config: { ...base.config, ...world.config }, now };
}

export const uuid = () => crypto.randomUUID();
export const ALL_SCOPES = [...REQUESTED_SCOPES];

/** A site on the simulator with a unique id. */
export function addSite(world: SiteWorld, name = 'Site', extra: { secondaryLocales?: string[]; customDomains?: string[] } = {}) {
  return world.sim.addSite({
    id: `site_${randomBytes(6).toString('hex')}`,
    displayName: `${name} ${randomBytes(2).toString('hex')}`,
    ...extra,
  });
}

export function addClient(world: SiteWorld, siteIds: string[]) {
  const client = { clientId: `cid_${randomBytes(6).toString('hex')}`, clientSecret: `csec_${randomBytes(16).toString('hex')}` };
  world.sim.addApp({ ...client, siteIds });
  return client;
}

export async function registerClient(
  world: SiteWorld,
  account: TestAccount,
  client: { clientId: string; clientSecret: string },
): Promise<string> {
  const res = await world.app.call('POST', '/api/site-platform/oauth-clients', {
    token: account.ownerToken,
    body: { client_id: client.clientId, client_secret: client.clientSecret },
  });
  if (res.status !== 201) throw new Error(`client registration failed: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Starts a connect, follows the simulator's consent redirect, and answers the callback URL on the private app. */
export async function authorize(world: SiteWorld, account: TestAccount, body: Record<string, unknown>): Promise<URL> {
  const start = await world.app.call('POST', '/api/site-platform/connect', { token: account.ownerToken, body });
  if (start.status !== 200) throw new Error(`connect failed: ${start.status} ${start.text}`);
  return followConsent(world, start.body.authorize_url);
}

export const followConsent = (world: SiteWorld, authorizeUrl: string): Promise<URL> => followConsentTo(authorizeUrl, world.app.baseUrl);

export async function openCallback(url: URL | string) {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}

/** Pastes a site token for the given sites; answers the 201 body. */
export async function connectWithSiteToken(world: SiteWorld, account: TestAccount, siteIds: string[], extra: Record<string, unknown> = {}) {
  const token = world.sim.issueToken({ scopes: ALL_SCOPES, siteIds });
  const res = await world.app.call('POST', '/api/site-platform/site-token', { token: account.ownerToken, body: { token, ...extra } });
  if (res.status !== 201) throw new Error(`site token connect failed: ${res.status} ${res.text}`);
  return { token, body: res.body };
}
