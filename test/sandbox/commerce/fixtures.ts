import { startCommerceSimulator, type CommerceSimulator, type SimulatorOptions } from '../../../src/sandbox/commerce';

export const SHOP = 'maple-goods.mycommerce.test';
export const APP = { clientId: 'app-client-1', clientSecret: 'app-secret-1' };
export const SCOPES = ['read_products', 'write_products', 'read_orders', 'read_customers'];

export interface Installed {
  sim: CommerceSimulator;
  token: string;
  admin(path: string, init?: RequestInit): Promise<Response>;
}

export function authorizeUrl(sim: CommerceSimulator, params: Record<string, string>, shop = SHOP): string {
  return `${sim.baseUrl}/${shop}/admin/oauth/authorize?${new URLSearchParams(params)}`;
}

/** Runs the OAuth flow over HTTP and returns the granted code from the redirect. */
export async function authorizeCode(sim: CommerceSimulator, shop = SHOP): Promise<string> {
  const res = await fetch(
    authorizeUrl(
      sim,
      {
        client_id: APP.clientId,
        scope: SCOPES.join(','),
        redirect_uri: 'https://app.example/cb',
        state: 'nonce-1',
      },
      shop,
    ),
    { redirect: 'manual' },
  );
  return new URL(res.headers.get('location')!).searchParams.get('code')!;
}

export function exchange(sim: CommerceSimulator, code: string, shop = SHOP, secret = APP.clientSecret): Promise<Response> {
  return fetch(`${sim.baseUrl}/${shop}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: APP.clientId, client_secret: secret, code }),
  });
}

/** A simulator with one app and one shop, installed over real HTTP. */
export async function installedSimulator(options: SimulatorOptions = {}): Promise<Installed> {
  const sim = await startCommerceSimulator(options);
  sim.addApp(APP);
  sim.addShop({ domain: SHOP, name: 'Maple Goods' });
  const res = await exchange(sim, await authorizeCode(sim));
  const { access_token: token } = (await res.json()) as { access_token: string };
  const admin = (path: string, init: RequestInit = {}) =>
    fetch(path.startsWith('http') ? path : `${sim.baseUrl}/${SHOP}/admin/api/2025-04${path}`, {
      ...init,
      headers: { 'x-commerce-access-token': token, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    });
  return { sim, token, admin };
}
