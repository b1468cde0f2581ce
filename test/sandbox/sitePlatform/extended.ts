import { OPERATIONS } from '../../../src/sitePlatform/registry';
import { authorizeCode, exchange, world, type ApiInit, type World } from './fixtures';

/** Every scope any registry operation needs. */
export const EVERY_SCOPE = [...new Set(OPERATIONS.flatMap((op) => [...op.scopes]))];

export interface ExtendedWorld extends World {
  /** An OAuth token granting EVERY_SCOPE (webhook creation needs an OAuth application). */
  oauthToken: string;
  call(base: 'v2' | 'beta', path: string, init?: ApiInit): Promise<Response>;
}

/** The shared world plus a token with every scope as its default; `enterprise` and `ecommerce` set the site's plan flags. */
export async function extendedWorld(flags: { enterprise?: boolean; ecommerce?: boolean } = {}): Promise<ExtendedWorld> {
  const w = await world();
  Object.assign(w.sim.siteData(w.site.id), { enterprise: flags.enterprise ?? false, ecommerce: flags.ecommerce ?? false });
  const token = w.sim.issueToken({ scopes: EVERY_SCOPE });
  const code = (await authorizeCode(w.sim, EVERY_SCOPE)).searchParams.get('code')!;
  const oauthToken = ((await (await exchange(w.sim, code)).json()) as { access_token: string }).access_token;
  const call = (base: 'v2' | 'beta', path: string, init: ApiInit = {}) => {
    const { token: t = token, body, ...rest } = init;
    const headers: Record<string, string> = { authorization: `Bearer ${t}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${w.sim.baseUrl}/${base}${path}`, { ...rest, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
  return { ...w, token, oauthToken, call, api: (path, init) => call('v2', path, init) };
}
