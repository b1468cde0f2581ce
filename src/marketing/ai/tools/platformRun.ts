import { toQuery } from '../../../sitePlatform/mcp/agentRouteClient';
import { AGENT_OPS_PATH, dispatch, inputOf, validateAgentInput } from '../../../sitePlatform/operations/service';
import { routeVerb, type OperationDef } from '../../../sitePlatform/registry';
import { requireOwnProject } from '../../../projects/service';
import type { DataUpdate, ToolCall, ToolContext, ToolOutcome } from '../types';
import { confirmationNeeded, preflight } from './confirmation';
import { appDepsOf, type ToolDeps } from './deps';
import { routeOutcome } from './outcome';

/** The agent route's idempotency slots: a turn's write and the same write sent to the route share one answer. */
const AGENT_SLOT_ROUTE = `POST ${AGENT_OPS_PATH}`;

/**
 * The arguments as the agent route would receive them: the model's `confirm` dropped (only the user confirms), the
 * pinned project in place of the model's own, and confirm: true once the user confirmed a gated call. A read goes
 * as query strings and a write as a JSON body, like MCP calls, so both validate, hash and audit the same input.
 */
function routeInput(op: OperationDef, ctx: ToolContext, args: Record<string, unknown>): Record<string, unknown> {
  const { confirm: _modelConfirm, ...rest } = args;
  const pinned = ctx.projectId ? { ...rest, project_id: ctx.projectId } : rest;
  const sent = op.confirmGated && ctx.confirmed ? { ...pinned, confirm: true } : pinned;
  return routeVerb(op) === 'GET'
    ? Object.fromEntries(toQuery(op.name, sent))
    : (JSON.parse(JSON.stringify({ ...sent, action: op.name })) as Record<string, unknown>);
}

function dataUpdatesOf(op: OperationDef, tool: string, body: unknown): DataUpdate[] {
  if (op.kind !== 'write') return [];
  const result = (body as { result?: unknown } | null)?.result;
  const id =
    result && typeof result === 'object' && typeof (result as { id?: unknown }).id === 'string' ? (result as { id: string }).id : null;
  return [{ type: 'site_platform', id, action: op.name, tool }];
}

/**
 * One platform tool call through the agent operation service's own steps: input checks, project ownership, then
 * `dispatch` (the runner's gates, validation, locks and audit as ctx.actor; the agent idempotency slot of a write,
 * keyed by ctx.idempotencyKey so an activity retry replays the first answer instead of writing twice).
 */
export async function runPlatformTool(deps: ToolDeps, ctx: ToolContext, op: OperationDef, call: ToolCall): Promise<ToolOutcome> {
  const method = routeVerb(op);
  const raw = validateAgentInput(method, routeInput(op, ctx, call.arguments));
  const input = inputOf(method, raw, raw);
  if (input.projectId) await requireOwnProject(deps.db, ctx.caller.accountId, input.projectId);
  if (op.confirmGated && !ctx.confirmed) {
    preflight(op, input.params, input.projectId);
    return confirmationNeeded(op, call.name, raw);
  }
  const res = await dispatch({
    deps: appDepsOf(deps),
    accountId: ctx.caller.accountId,
    projectId: input.projectId,
    method,
    input,
    actor: () => Promise.resolve(ctx.actor),
    slotRoute: AGENT_SLOT_ROUTE,
    idempotencyKey: ctx.idempotencyKey,
    rawRequest: raw,
  });
  const status = res.status ?? 200;
  return routeOutcome(status, res.body ?? null, status < 300 ? dataUpdatesOf(op, call.name, res.body) : []);
}
