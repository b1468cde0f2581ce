import type { OperationDef } from '../registry';
import { routeVerb } from '../registry';
import { AGENT_OPS_PATH } from '../operations/service';

export { AGENT_OPS_PATH };

export interface AgentRouteTarget {
  /** Origin of the service API, e.g. http://127.0.0.1:3000 (no trailing path). */
  apiBaseUrl: string;
  /** The caller's agent API key, sent as the bearer credential. */
  agentKey: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export interface AgentRouteResponse {
  status: number;
  body: unknown;
}

/** How a tool reaches the operations: the answer is the agent route's status and body for the same call. */
export type OperationInvoker = (op: OperationDef, args: Record<string, unknown>) => Promise<AgentRouteResponse>;

/** Scalars go as-is; arrays and objects (page_schema_bulk_get's pages) go JSON-encoded, one key each. */
export function toQuery(action: string, args: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams({ action });
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return query;
}

/**
 * One call of the agent operation route over HTTP, for an MCP server running apart from the API (the API's own /mcp
 * route runs tools in process instead): a read is GET with the parameters as query, a write POST with a JSON body. */
export async function callAgentOperation(
  target: AgentRouteTarget,
  op: OperationDef,
  args: Record<string, unknown>,
): Promise<AgentRouteResponse> {
  const doFetch = target.fetch ?? fetch;
  const base = target.apiBaseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { authorization: `Bearer ${target.agentKey}`, accept: 'application/json' };
  const signal = AbortSignal.timeout(target.timeoutMs ?? 120_000);
  const res =
    routeVerb(op) === 'GET'
      ? await doFetch(`${base}${AGENT_OPS_PATH}?${toQuery(op.name, args)}`, { method: 'GET', headers, signal })
      : await doFetch(`${base}${AGENT_OPS_PATH}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ ...args, action: op.name }),
          signal,
        });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* a non-JSON body is passed on as text */
  }
  return { status: res.status, body };
}

/** Tools forwarded over HTTP to the agent route at `target`; a failed or late request is a coded 502 or 504 answer. */
export function remoteInvoker(target: AgentRouteTarget): OperationInvoker {
  return async (op, args) => {
    try {
      return await callAgentOperation(target, op, args);
    } catch (err) {
      const timedOut = err instanceof Error && err.name === 'TimeoutError';
      return {
        status: timedOut ? 504 : 502,
        body: {
          code: timedOut ? 'operation_route_timeout' : 'operation_route_unreachable',
          message: timedOut ? 'the operation route did not answer in time' : 'the operation route could not be reached',
        },
      };
    }
  };
}
