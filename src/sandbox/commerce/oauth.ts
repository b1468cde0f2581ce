/**
 * OAuth on the shop: the authorize page approves at once and redirects back with a signed query; the token
 * exchange trades a code (once) for an access token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { formParams, json, type SimRequest, type SimResponse } from './http';
import { randomHex, type SimState } from './state';

const CODE_TTL_MS = 10 * 60_000;

/**
 * The callback signature: hex HMAC-SHA256, keyed by the client secret, over the parameters other than `hmac` and
 * `signature`, sorted by key and joined as `key=value` with `&` (decoded values).
 */
export function signQuery(params: Iterable<[string, string]>, secret: string): string {
  const message = [...params]
    .filter(([k]) => k !== 'hmac' && k !== 'signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

function oauthError(status: number, error: string, description: string): SimResponse {
  return json(status, { error, error_description: description });
}

export function authorize(state: SimState, req: SimRequest): SimResponse {
  const app = state.apps.get(req.query.get('client_id') ?? '');
  if (!app) return oauthError(400, 'invalid_request', 'Unknown client_id: no app is registered with that client id');
  const redirect = parseRedirect(req.query.get('redirect_uri'));
  if (!redirect) return oauthError(400, 'invalid_request', 'redirect_uri must be an absolute http(s) URL');
  const requested = (req.query.get('scope') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const online = req.query.getAll('grant_options[]').includes('per-user');
  const code = randomHex(16);
  state.codes.set(code, {
    code,
    domain: req.domain,
    clientId: app.clientId,
    scopes: app.scopes ?? requested,
    online,
    expiresAt: Date.now() + CODE_TTL_MS,
    used: false,
  });
  const params: Array<[string, string]> = [
    ['code', code],
    // base64url without padding keeps every value URL-safe, so the encoded and decoded query sign the same.
    ['host', Buffer.from(`${req.domain}/admin`).toString('base64url')],
    ['shop', req.domain],
    ['timestamp', String(Math.floor(Date.now() / 1000))],
  ];
  const clientState = req.query.get('state');
  if (clientState !== null) params.push(['state', clientState]);
  for (const [k, v] of params) redirect.searchParams.set(k, v);
  redirect.searchParams.set('hmac', signQuery(params, app.clientSecret));
  return { status: 302, headers: { location: redirect.toString() }, body: { redirect: redirect.toString() } };
}

function parseRedirect(value: string | null): URL | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function exchangeCode(state: SimState, req: SimRequest): SimResponse {
  const params = formParams(req);
  const app = state.apps.get(params.get('client_id') ?? '');
  if (!app || !sameSecret(app.clientSecret, params.get('client_secret') ?? '')) {
    return oauthError(400, 'invalid_client', 'Client credentials are invalid');
  }
  const grant = state.codes.get(params.get('code') ?? '');
  if (!grant || grant.used || grant.expiresAt < Date.now() || grant.clientId !== app.clientId || grant.domain !== req.domain) {
    return oauthError(400, 'invalid_request', 'The authorization code was not found or was already used');
  }
  grant.used = true;
  const token = `cpat_${randomHex(16)}`;
  state.tokens.set(token, { token, domain: grant.domain, clientId: app.clientId, scopes: grant.scopes });
  state.installedBy.set(grant.domain, app.clientId);
  const scope = grant.scopes.join(',');
  if (!grant.online) return json(200, { access_token: token, scope });
  return json(200, {
    access_token: token,
    scope,
    expires_in: 86_399,
    associated_user_scope: scope,
    associated_user: { id: state.nextId(), first_name: 'Sam', last_name: 'Owner', email: `owner@${grant.domain}`, account_owner: true },
  });
}
