import { z } from 'zod';
import { missingPermission } from '../../auth/authenticate';
import type { AuthContext } from '../../auth/types';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../http/errors';
import { validatePart } from '../../http/validate';
import { requireOwnProject } from '../../projects/service';
import { getOperation } from '../registry';
import { actorOf } from './actor';
import { OPERATION_PERMISSION, kindOfVerb, mayRun } from './permissions';
import type { OperationResult } from './resultJson';
import { runOperation } from './runner';
import { slotFor, withSlot } from './slots';

export const AGENT_OPS_PATH = '/api/agent/web/site-platform-ops';
/** The idempotency slots of agent-key calls, whether they came in on the agent route or as MCP tool calls. */
const AGENT_SLOT_ROUTE = `POST ${AGENT_OPS_PATH}`;

export const queryInput = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export const bodyInput = z.record(z.string(), z.unknown());

/** Splits the request into action, project_id and the operation's own parameters (query for GET, JSON body for POST). */
export function inputOf(method: string, query: Record<string, unknown>, body: Record<string, unknown> | undefined) {
  const { action, project_id, ...params } = method === 'GET' ? query : (body ?? {});
  return { action, projectId: typeof project_id === 'string' && project_id !== '' ? project_id : undefined, params };
}

export interface Dispatch {
  deps: AppDeps;
  accountId: string;
  projectId?: string;
  method: string;
  input: ReturnType<typeof inputOf>;
  actor: () => Promise<string>;
  /** Slot route name, or null when this request claims no slot. */
  slotRoute: string | null;
  idempotencyKey?: string;
  rawRequest: unknown;
}

/** An operation route's answer (a replay from the slot carries `Idempotent-Replayed`). */
export interface OperationAnswer {
  status: 200;
  body: OperationResult;
  headers?: Record<string, string>;
}

/** Runs the operation, behind an idempotency slot for a slot-claiming write when the caller claims one. */
export async function dispatch(d: Dispatch): Promise<OperationAnswer> {
  const run = async (): Promise<OperationAnswer> => ({
    status: 200,
    body: await runOperation(d.deps, {
      accountId: d.accountId,
      projectId: d.projectId,
      method: d.method,
      action: d.input.action,
      params: d.input.params,
      actor: d.actor,
    }),
  });
  const op = typeof d.input.action === 'string' ? getOperation(d.input.action) : undefined;
  if (!d.slotRoute || !op?.claimsIdempotencySlot || d.method !== 'POST') return run();
  return withSlot(d.deps.db, d.deps.secretHashKey, slotFor(d.accountId, d.slotRoute, d.rawRequest, d.idempotencyKey), run);
}

export interface AgentOperationCall {
  /** The route's method: GET for a read, POST for a write (a wrong one is 400 wrong_verb). */
  method: string;
  /** The query (GET) or the JSON body (POST) exactly as the agent route receives it, `action` included. */
  input: Record<string, unknown>;
  /** The Idempotency-Key header; without it a slot-claiming write is keyed by a hash of the body. */
  idempotencyKey?: string;
}

type AgentAuth = Extract<AuthContext, { kind: 'agent' }>;

/**
 * One operation as an agent key runs it, on the agent operation route or as an MCP tool call: project ownership, the
 * runner (gates, validation, locks, audit as `agent:<key name>`) and the agent idempotency slot of every POST.
 * A read-only key may only read, and a key runs only the kind of operation its permissions allow (site_platform:read,
 * site_platform:write): the route's authentication already refuses both; MCP relies on these checks.
 */
export async function runAgentOperation(deps: AppDeps, auth: AgentAuth, call: AgentOperationCall): Promise<OperationAnswer> {
  if (auth.readOnly && call.method === 'POST') throw new ApiError(403, 'read_only_key', 'this agent key is read-only');
  const kind = kindOfVerb(call.method);
  if (!mayRun(auth.permissions, kind)) throw missingPermission(OPERATION_PERMISSION[kind]);
  const input = inputOf(call.method, call.input, call.input);
  if (input.projectId) await requireOwnProject(deps.db, auth.accountId, input.projectId);
  return dispatch({
    deps,
    accountId: auth.accountId,
    projectId: input.projectId,
    method: call.method,
    input,
    actor: () => actorOf(deps.db, auth, undefined),
    slotRoute: AGENT_SLOT_ROUTE,
    idempotencyKey: call.idempotencyKey,
    rawRequest: call.input,
  });
}

/** The agent route's checks of its query or body, for a caller that did not come through the route (MCP). */
export function validateAgentInput(method: string, input: Record<string, unknown>): Record<string, unknown> {
  return method === 'GET' ? validatePart('query', queryInput, input) : validatePart('body', bodyInput, input);
}
