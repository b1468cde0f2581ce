/**
 * OAuth 2.0 authorization-code grant without PKCE: authorize approves at once and redirects with code and state; a
 * code is exchanged once for a token that never expires; revoke_authorization ends the authorization.
 */
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { formParams, json, parseWith, type SimRequest, type SimResponse } from './http';
import { randomHex, iso, tokenRateLimit, type SimApp, type SimState } from './state';

const CODE_TTL_MS = 10 * 60_000;

const authorizeQuery = z.object({
  client_id: z.string().min(1),
  response_type: z.literal('code'),
  scope: z.string().min(1),
  state: z.string().optional(),
  redirect_uri: z.url().optional(),
});

const exchangeParams = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  code: z.string().min(1),
  grant_type: z.literal('authorization_code'),
  redirect_uri: z.string().optional(),
});

const revokeParams = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  access_token: z.string().min(1),
});

function oauthError(status: number, error: string, description: string): SimResponse {
  return json(status, { error, error_description: description });
}

function params(req: SimRequest): Record<string, string> {
  return Object.fromEntries(formParams(req));
}

export function authorize(state: SimState, req: SimRequest): SimResponse {
  const parsed = parseWith(authorizeQuery, Object.fromEntries(req.query));
  if (!parsed.ok) return oauthError(400, 'invalid_request', 'client_id, response_type=code and scope are required');
  const q = parsed.value;
  const app = state.apps.get(q.client_id);
  if (!app) return oauthError(400, 'invalid_client', 'Unknown client_id');
  const redirectUri = q.redirect_uri ?? app.redirectUri;
  if (!redirectUri) return oauthError(400, 'invalid_request', 'redirect_uri is required');
  if (app.redirectUri && redirectUri !== app.redirectUri) {
    return oauthError(400, 'invalid_request', 'redirect_uri does not match the registered one');
  }
  const code = randomHex(20);
  // Scopes arrive space-separated (a `+` in the URL); commas are tolerated.
  const scopes = q.scope.split(/[\s,]+/).filter(Boolean);
  state.codes.set(code, { clientId: app.clientId, redirectUri: q.redirect_uri, scopes, used: false, expiresAt: state.now() + CODE_TTL_MS });
  const target = new URL(redirectUri);
  target.searchParams.set('code', code);
  if (q.state !== undefined) target.searchParams.set('state', q.state);
  return { status: 302, headers: { location: target.toString() }, body: { redirect: target.toString() } };
}

function appWithSecret(state: SimState, clientId: string, secret: string): SimApp | undefined {
  const app = state.apps.get(clientId);
  if (!app) return undefined;
  const a = Buffer.from(app.clientSecret);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b) ? app : undefined;
}

export function exchangeCode(state: SimState, req: SimRequest): SimResponse {
  const parsed = parseWith(exchangeParams, params(req));
  if (!parsed.ok)
    return oauthError(400, 'invalid_request', 'client_id, client_secret, code and grant_type=authorization_code are required');
  const p = parsed.value;
  const app = appWithSecret(state, p.client_id, p.client_secret);
  if (!app) return oauthError(401, 'invalid_client', 'Client credentials are invalid');
  const grant = state.codes.get(p.code);
  const redirectMismatch = grant?.redirectUri !== undefined && p.redirect_uri !== undefined && p.redirect_uri !== grant.redirectUri;
  if (!grant || grant.used || grant.expiresAt < state.now() || grant.clientId !== app.clientId || redirectMismatch) {
    return oauthError(400, 'invalid_grant', 'The authorization code is invalid, expired or already used');
  }
  grant.used = true;
  const siteIds = app.siteIds ?? [...state.sites.keys()];
  const sites = siteIds.map((id) => state.sites.get(id)).filter((s) => s !== undefined);
  const token = randomHex(32);
  state.tokens.set(token, {
    token,
    kind: 'oauth',
    clientId: app.clientId,
    scopes: grant.scopes,
    rateLimit: tokenRateLimit(sites),
    siteIds,
    workspaceIds: [...new Set(sites.map((s) => s.workspaceId))],
    userId: state.user.id,
    createdOn: iso(state.now()),
    revoked: false,
  });
  return json(200, { access_token: token, token_type: 'bearer' });
}

export function revokeAuthorization(state: SimState, req: SimRequest): SimResponse {
  const parsed = parseWith(revokeParams, params(req));
  if (!parsed.ok) return oauthError(400, 'invalid_request', 'client_id, client_secret and access_token are required');
  const p = parsed.value;
  const app = appWithSecret(state, p.client_id, p.client_secret);
  if (!app) return oauthError(401, 'invalid_client', 'Client credentials are invalid');
  const token = state.tokens.get(p.access_token);
  if (!token || token.clientId !== app.clientId) return json(200, { didRevoke: false });
  token.revoked = true;
  return json(200, { didRevoke: true });
}
