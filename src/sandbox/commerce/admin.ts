/**
 * The Admin API gate and router: version, access token, scope, leaky bucket, then the handler.
 * Every answer carries the call-limit header, including 429s.
 */
import { json, notFound, type SimRequest, type SimResponse } from './http';
import { LeakyBuckets, THROTTLED_MESSAGE } from './rateLimit';
import { API_VERSION, type AccessToken, type ShopState, type SimState } from './state';
import * as webhooks from './webhooks';
import { adminReadRoutes } from './adminReads';
import type { AdminContext, AdminRoute } from './adminRoute';

export const CALL_LIMIT_HEADER = 'x-commerce-shop-api-call-limit';

export type { AdminContext, AdminRoute };

const routes: AdminRoute[] = [
  { method: 'GET', pattern: /^\/shop\.json$/, handle: ({ shop }) => json(200, { shop: shop.info }) },
  { method: 'GET', pattern: /^\/webhooks\.json$/, handle: (c) => webhooks.listWebhooks(c.shop, c.token.clientId, c.req) },
  { method: 'GET', pattern: /^\/webhooks\/count\.json$/, handle: (c) => webhooks.countWebhooks(c.shop, c.token.clientId) },
  { method: 'POST', pattern: /^\/webhooks\.json$/, handle: (c) => webhooks.createWebhook(c.state, c.shop, c.token.clientId, c.req) },
  { method: 'GET', pattern: /^\/webhooks\/(\d+)\.json$/, handle: (c, m) => webhooks.getWebhook(c.shop, c.token.clientId, m[1]) },
  { method: 'PUT', pattern: /^\/webhooks\/(\d+)\.json$/, handle: (c, m) => webhooks.updateWebhook(c.shop, c.token.clientId, m[1], c.req) },
  { method: 'DELETE', pattern: /^\/webhooks\/(\d+)\.json$/, handle: (c, m) => webhooks.deleteWebhook(c.shop, c.token.clientId, m[1]) },
  ...adminReadRoutes,
];

function hasScope(token: AccessToken, scope: string): boolean {
  return token.scopes.includes(scope) || token.scopes.includes(scope.replace(/^read_/, 'write_'));
}

function authenticate(state: SimState, req: SimRequest): AccessToken | undefined {
  const header = req.headers['x-commerce-access-token'];
  const token = state.tokens.get(typeof header === 'string' ? header : '');
  return token && token.domain === req.domain ? token : undefined;
}

export function handleAdmin(state: SimState, buckets: LeakyBuckets, shop: ShopState, req: SimRequest): SimResponse {
  const match = /^\/admin\/api\/([^/]+)(\/.*)$/.exec(req.path);
  if (!match || match[1] !== API_VERSION) return notFound();
  const token = authenticate(state, req);
  if (!token) {
    return json(401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
  }
  const verdict = buckets.take(`${req.domain}|${token.clientId}`);
  const limitHeader = { [CALL_LIMIT_HEADER]: verdict.header };
  if (!verdict.allowed) {
    return json(429, { errors: THROTTLED_MESSAGE }, { ...limitHeader, 'retry-after': String(verdict.retryAfterSeconds) });
  }
  const response = dispatch({ state, shop, token, req }, match[2]);
  return { ...response, headers: { ...response.headers, ...limitHeader } };
}

function dispatch(ctx: AdminContext, path: string): SimResponse {
  for (const route of routes) {
    const m = route.method === ctx.req.method ? route.pattern.exec(path) : null;
    if (!m) continue;
    if (route.scope && !hasScope(ctx.token, route.scope)) {
      return json(403, { errors: `[API] This action requires merchant approval for ${route.scope} scope.` });
    }
    return route.handle(ctx, m);
  }
  return notFound();
}
