import { ApiError } from '../../../http/errors';
import type { ToolCall, ToolContext, ToolOutcome } from '../types';
import { toolsFor } from './catalogue';
import { runContentTool } from './contentRun';
import { contentToolSpec } from './contentTools';
import type { ToolDeps } from './deps';
import { answering, errorOutcome, toolNotAvailable } from './outcome';
import { operationOfTool } from './platformTools';
import { runPlatformTool } from './platformRun';

/**
 * Runs one tool call of a turn as its caller. Whatever the model sent, the answer is an outcome: a tool the caller is
 * not offered is `tool_not_available` (403, or 404 for no such tool), bad arguments a coded 400, a refused call the
 * route's coded error. Only an unexpected failure (database, Temporal down) throws, so the activity retries it under
 * the same idempotency key.
 */
export async function runTool(deps: ToolDeps, ctx: ToolContext, call: ToolCall): Promise<ToolOutcome> {
  const op = operationOfTool(call.name);
  const content = op ? undefined : contentToolSpec(call.name);
  if (!op && !content) return toolNotAvailable(call.name, false);
  if (!toolsFor(ctx.caller).some((tool) => tool.name === call.name)) return toolNotAvailable(call.name, true);
  if (!call.arguments || typeof call.arguments !== 'object' || Array.isArray(call.arguments)) {
    return errorOutcome(new ApiError(400, 'invalid_arguments', 'the arguments of a tool call must be a JSON object'));
  }
  return answering(() => (op ? runPlatformTool(deps, ctx, op, call) : runContentTool(deps, ctx, content!.name, call)));
}
