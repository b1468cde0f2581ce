import { randomBytes } from 'node:crypto';
import type { Config } from '../../../src/config';
import { startCommerceSimulator, type CommerceSimulator } from '../../../src/sandbox/commerce';
import type { TestAccount } from '../../helpers/accounts';
import { startPrivateApp, type PrivateApp } from '../../helpers/privateApp';
import { followConsent } from '../../helpers/oauthConsent';

/** The simulator and a private app whose COMMERCE_SHOP_URL_TEMPLATE points at it. */
export interface CommerceWorld {
  sim: CommerceSimulator;
  app: PrivateApp;
  close(): Promise<void>;
}

export async function startCommerceWorld(config: Partial<Config> = {}, sim?: CommerceSimulator): Promise<CommerceWorld> {
  const simulator = sim ?? (await startCommerceSimulator());
  const app = await startPrivateApp([], { config: { COMMERCE_SHOP_URL_TEMPLATE: simulator.shopUrlTemplate, ...config } });
  return {
    sim: simulator,
    app,
    close: async () => {
      await app.close();
      if (!sim) await simulator.stop();
    },
  };
}

export const newShopDomain = () => `shop-${randomBytes(4).toString('hex')}.commerce.test`;

export interface RegisteredApp {
  clientId: string;
  clientSecret: string;
}

/** Registers an app on the simulator and on the account (PUT /api/commerce/app). */
export async function registerApp(world: CommerceWorld, account: TestAccount, scopes?: string[]): Promise<RegisteredApp> {
  const app = { clientId: `cid_${randomBytes(6).toString('hex')}`, clientSecret: `csec_${randomBytes(16).toString('hex')}` };
  world.sim.addApp({ ...app, scopes });
  const res = await world.app.call('PUT', '/api/commerce/app', {
    token: account.ownerToken,
    body: { client_id: app.clientId, client_secret: app.clientSecret },
  });
  if (res.status !== 200) throw new Error(`app registration failed: ${res.status} ${res.text}`);
  return app;
}

/** Starts a connect and follows the platform's approval redirect: the callback URL (on the private app) to open. */
export async function authorizeShop(world: CommerceWorld, account: TestAccount, shopDomain: string): Promise<URL> {
  const start = await world.app.call('POST', '/api/commerce/connect', { token: account.ownerToken, body: { shop_domain: shopDomain } });
  if (start.status !== 200) throw new Error(`connect failed: ${start.status} ${start.text}`);
  return followConsent(start.body.authorize_url, world.app.baseUrl);
}

export async function openCallback(url: URL, accept = 'application/json') {
  const res = await fetch(url, { headers: { accept } });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text, headers: res.headers };
}

/** A shop added to the simulator and connected on the account end to end; answers the callback's JSON. */
export async function connectShop(world: CommerceWorld, account: TestAccount, shopDomain = newShopDomain(), name?: string) {
  world.sim.addShop({ domain: shopDomain, name });
  const res = await openCallback(await authorizeShop(world, account, shopDomain));
  if (res.status !== 200) throw new Error(`callback failed: ${res.status} ${res.text}`);
  return { shopDomain, connection: res.body.connection, webhooks: res.body.webhooks };
}
