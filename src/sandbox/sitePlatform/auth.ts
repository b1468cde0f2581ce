/** Bearer-token resolution and scope checks for the Data API. */
import { platformError, type SimRequest, type SimResponse } from './http';
import type { SimState, SimToken } from './state';

export type Resolved = { ok: true; token: SimToken } | { ok: false; response: SimResponse };

export function resolveToken(state: SimState, req: SimRequest): Resolved {
  const header = String(req.headers.authorization ?? '');
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const token = match ? state.tokens.get(match[1]) : undefined;
  if (!token || token.revoked) {
    return { ok: false, response: platformError(401, 'not_authorized', 'Request not authorized') };
  }
  return { ok: true, token };
}

// Older grants carry the singular page:* scopes; the platform treats them as pages:*.
const ALIASES: Record<string, string> = { 'page:read': 'pages:read', 'page:write': 'pages:write' };

function normalise(scope: string): string {
  return ALIASES[scope] ?? scope;
}

export function hasScope(token: SimToken, needed: string): boolean {
  const want = normalise(needed);
  return token.scopes.some((s) => normalise(s) === want);
}

export function missingScope(needed: string): SimResponse {
  return platformError(403, 'missing_scopes', `OAuthForbidden: missing scopes: ${needed}`, [{ param: 'scope', description: needed }]);
}

export function canSeeSite(token: SimToken, siteId: string): boolean {
  return token.siteIds.includes(siteId);
}
