import { Context } from '@temporalio/activity';
import { finishTurn, markTurnAlive, modelStep, toolStep, turnState, type TurnStateChange } from '../src/marketing/ai/turnSteps';
import type { ToolDeps } from '../src/marketing/ai/tools';
import type { ActivityDeps } from './deps';
import { HEARTBEAT_EVERY_MS } from './heartbeat';
import { workflowActor } from './siteDeps';

/**
 * Runs a step of a turn while heartbeating and marking the turn alive every few seconds: a poll reads the turn as
 * stale only when its worker stopped making progress (AI_TURN_STALE_SECONDS), and a worker that dies mid-call has the
 * attempt retried on another within the heartbeat timeout.
 */
async function whileAlive<T>(deps: ActivityDeps, accountId: string, turnId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  // The step that scheduled this one has just written the row (and its progress); a step that goes on marks it again.
  ctx.heartbeat();
  const timer = setInterval(() => {
    ctx.heartbeat();
    markTurnAlive(deps.db, accountId, turnId).catch(() => undefined);
  }, HEARTBEAT_EVERY_MS);
  try {
    return await work(ctx.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}

/** The tool runner's deps inside an activity: jobs a tool starts go to this worker's task queue. */
function toolDeps(deps: ActivityDeps): ToolDeps {
  const { info, client } = Context.current();
  return {
    db: deps.db,
    config: deps.config,
    logger: deps.logger,
    secretHashKey: deps.config.SECRET_HASH_KEY ?? '',
    temporal: { client, namespace: info.workflowNamespace ?? deps.config.TEMPORAL_NAMESPACE, taskQueue: info.taskQueue },
  };
}

/** The department AI chat turn's steps (workflows/aiTurn.ts); each reads and writes the turn's row, never its payloads in history. */
export function createAiTurnActivities(deps: ActivityDeps) {
  return {
    aiModelStep: (input: { accountId: string; turnId: string; step: number }) =>
      whileAlive(deps, input.accountId, input.turnId, (signal) => modelStep(deps, input, signal)),
    aiToolStep: (input: { accountId: string; turnId: string; callId: string; confirmed: boolean }) =>
      whileAlive(deps, input.accountId, input.turnId, () => toolStep(toolDeps(deps), { ...input, actor: workflowActor() })),
    aiTurnState: (input: { accountId: string; turnId: string; change: TurnStateChange }) => turnState(deps.db, input),
    aiFinishTurn: (input: { accountId: string; turnId: string; status: 'completed' | 'failed' | 'cancelled'; code?: string }) =>
      finishTurn(deps.db, input),
  };
}
