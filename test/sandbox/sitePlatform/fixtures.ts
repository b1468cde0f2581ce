import {
  startSitePlatformSimulator,
  type SimCollection,
  type SimSite,
  type SitePlatformSimulator,
} from '../../../src/sandbox/sitePlatform';

export const APP = { clientId: 'site-app-1', clientSecret: 'site-app-secret-1', redirectUri: 'https://app.example.test/cb' };
export const ALL_SCOPES = ['sites:read', 'sites:write', 'pages:read', 'pages:write', 'cms:read', 'cms:write', 'authorized_user:read'];

/** fetch options whose body is a value sent as JSON, and the bearer token to use (default the world's). */
export type ApiInit = Omit<RequestInit, 'body'> & { token?: string; body?: unknown };

export interface World {
  sim: SitePlatformSimulator;
  site: SimSite;
  blog: SimCollection;
  clock: { now: number; advance(ms: number): void };
  /** A site token with every scope above. */
  token: string;
  api(path: string, init?: ApiInit): Promise<Response>;
}

/** One site (custom domain, French secondary locale), a Blog collection with 5 items, two pages, a token. */
export async function world(): Promise<World> {
  const clock = {
    now: Date.UTC(2026, 0, 1),
    advance(ms: number) {
      this.now += ms;
    },
  };
  const sim = await startSitePlatformSimulator({ now: () => clock.now });
  sim.addApp(APP);
  const site = sim.addSite({
    displayName: 'Maple Studio',
    workspaceId: 'ws-maple',
    customDomains: ['www.maple.test'],
    secondaryLocales: ['fr'],
  });
  const blog = sim.addCollection(site.id, { displayName: 'Blog Posts', singularName: 'Blog Post', fields: [{ slug: 'summary' }] });
  sim.addItems(blog.id, 5);
  sim.addPage(site.id, { title: 'Home', slug: '' });
  sim.addPage(site.id, { title: 'About', slug: 'about' });
  const token = sim.issueToken({ scopes: ALL_SCOPES });
  const api = (path: string, init: ApiInit = {}) => {
    const { token: t = token, body, ...rest } = init;
    const headers: Record<string, string> = { authorization: `Bearer ${t}`, ...(rest.headers as Record<string, string>) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${sim.baseUrl}/v2${path}`, { ...rest, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
  return { sim, site, blog, clock, token, api };
}

export async function authorizeCode(sim: SitePlatformSimulator, scopes = ALL_SCOPES, state = 'csrf-1'): Promise<URL> {
  const query = new URLSearchParams({
    client_id: APP.clientId,
    response_type: 'code',
    scope: scopes.join(' '),
    state,
    redirect_uri: APP.redirectUri,
  });
  const res = await fetch(`${sim.baseUrl}/oauth/authorize?${query}`, { redirect: 'manual' });
  return new URL(res.headers.get('location')!);
}

export function exchange(sim: SitePlatformSimulator, code: string, secret = APP.clientSecret): Promise<Response> {
  return fetch(`${sim.baseUrl}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: APP.clientId, client_secret: secret, code, grant_type: 'authorization_code' }),
  });
}
