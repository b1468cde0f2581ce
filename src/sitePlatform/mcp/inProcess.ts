import type { AuthContext } from '../../auth/types';
import type { AppDeps } from '../../deps';
import { ApiError, asApiError, errorBody } from '../../http/errors';
import { routeVerb } from '../registry';
import { runAgentOperation, validateAgentInput } from '../operations/service';
import { toQuery, type OperationInvoker } from './agentRouteClient';

/**
 * Tool calls of the /mcp route: each runs the agent operation service in this process with the caller's key, so it
 * gets the agent route's checks, gates, idempotency slot and audit without another HTTP request. The arguments take
 * the shape the agent route would receive (a read's as query strings, a write's as the JSON body with `action`), so
 * both paths validate, hash and audit the same input. Errors come back as the coded body the route would answer.
 */
export function inProcessInvoker(deps: AppDeps, auth: Extract<AuthContext, { kind: 'agent' }>, requestId: string): OperationInvoker {
  return async (op, args) => {
    const method = routeVerb(op);
    const raw: Record<string, unknown> =
      method === 'GET' ? Object.fromEntries(toQuery(op.name, args)) : JSON.parse(JSON.stringify({ ...args, action: op.name }));
    try {
      const input = validateAgentInput(method, raw);
      const res = await runAgentOperation(deps, auth, { method, input });
      return { status: res.status ?? 200, body: res.body ?? null };
    } catch (err) {
      const coded = asApiError(err);
      if (coded) return { status: coded.status, body: errorBody(coded, requestId) };
      deps.logger.error({ err, requestId, action: op.name }, 'unhandled error in an MCP tool call');
      return { status: 500, body: errorBody(new ApiError(500, 'internal', 'internal error'), requestId) };
    }
  };
}
