/** The Data API route table type and the dispatcher: auth, rate limit, scope, then the handler. */
import { recordActivity } from './activity';
import { hasScope, missingScope, resolveToken } from './auth';
import { notFound, platformError, type SimRequest, type SimResponse } from './http';
import type { MinuteWindows } from './rateLimit';
import type { SimState, SimToken } from './state';

export interface RouteContext {
  state: SimState;
  req: SimRequest;
  token: SimToken;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Anchored; named groups become `req.params`. */
  pattern: RegExp;
  /** Scope the token must hold; none for token introspection. */
  scope?: string;
  handle(ctx: RouteContext): SimResponse;
}

export function dispatch(routes: Route[], state: SimState, windows: MinuteWindows, req: SimRequest): SimResponse {
  const candidates = routes.filter((r) => r.pattern.test(req.path));
  if (candidates.length === 0) return notFound('Route');
  const route = candidates.find((r) => r.method === req.method);
  if (!route) return platformError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}`);
  const auth = resolveToken(state, req);
  if (!auth.ok) return auth.response;
  const verdict = windows.take(auth.token.token, auth.token.rateLimit);
  if (!verdict.allowed) {
    const limited = platformError(
      429,
      'too_many_requests',
      `Rate limit exceeded. Please retry after ${verdict.retryAfterSeconds} seconds.`,
    );
    return withHeaders(limited, verdict.headers);
  }
  if (route.scope && !hasScope(auth.token, route.scope)) return withHeaders(missingScope(route.scope), verdict.headers);
  const params = route.pattern.exec(req.path)?.groups ?? {};
  const response = route.handle({ state, req: { ...req, params: { ...params } }, token: auth.token });
  recordActivity(state, req, response);
  return withHeaders(response, verdict.headers);
}

function withHeaders(response: SimResponse, headers: Record<string, string>): SimResponse {
  return { ...response, headers: { ...headers, ...response.headers } };
}
