import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { aiTurnConfirmSignal, type AiTurnInput, type AiTurnResult } from './aiTurn.contract';
import { trackProgress } from './progress';
import { codeOf, isStepFailure } from './stepFailure';

// The model call: OpenAI-compatible chat completions (at least 60 s of its own timeout), heartbeating so a worker
// that dies mid-call has the attempt retried on another worker within the heartbeat timeout.
const { aiModelStep } = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 },
});
// One tool call through the registry runner or a content service (platform rate limits may hold it a while).
const { aiToolStep } = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '15 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 },
});
// Bookkeeping: a few row writes each.
const { aiTurnState, aiFinishTurn } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 5 },
});

/**
 * One turn of a department AI chat (`ai-turn:<account>:<turn>`): model call → the tool calls it asked for, one by one
 * → model call … until the model answers, within `maxSeconds` and `maxSteps`. The transcript, the tool arguments and
 * their answers live in the database (activities read and write them); this history carries ids and statuses only.
 * A confirm-gated tool call stops the turn in `awaiting_confirmation` until the `confirm` signal answers it.
 */
export async function aiTurn(input: AiTurnInput): Promise<AiTurnResult> {
  const { accountId, turnId } = input;
  const deadline = Date.now() + input.maxSeconds * 1000;
  const progress = trackProgress('thinking');
  const confirmations = new Map<string, boolean>();
  setHandler(aiTurnConfirmSignal, ({ call_id, approve }) => void confirmations.set(call_id, approve));

  const finish = async (status: AiTurnResult['status'], code?: string): Promise<AiTurnResult> => {
    await CancellationScope.nonCancellable(() => aiFinishTurn({ accountId, turnId, status, code }));
    return { turn_id: turnId, status, ...(code ? { code } : {}) };
  };
  // A failed turn is recorded, then fails its run with the code, so the job surface shows it failed and why.
  const fail = async (code: string): Promise<never> => {
    await finish('failed', code);
    throw ApplicationFailure.create({ type: code, message: `the turn failed: ${code}`, nonRetryable: true });
  };

  try {
    for (let step = 0; step < input.maxSteps; step++) {
      if (Date.now() >= deadline) return fail('turn_timed_out');
      progress.phase('thinking');
      const answer = await aiModelStep({ accountId, turnId, step });
      if (answer.kind === 'answer') return await finish('completed');
      progress.phase('running tools', answer.calls.length);
      for (const call of answer.calls) {
        const outcome = await aiToolStep({ accountId, turnId, callId: call.id, confirmed: false });
        if (outcome.status === 'needs_confirmation') {
          await aiTurnState({ accountId, turnId, change: { kind: 'awaiting_confirmation', callId: call.id } });
          progress.phase('awaiting confirmation');
          const answered = await condition(() => confirmations.has(call.id), Math.max(1, deadline - Date.now()));
          if (!answered) return fail('confirmation_timed_out');
          const approve = confirmations.get(call.id)!;
          await aiTurnState({ accountId, turnId, change: { kind: 'resumed', callId: call.id, approve } });
          if (approve) await aiToolStep({ accountId, turnId, callId: call.id, confirmed: true });
        }
        progress.advance();
      }
    }
    return fail('too_many_steps');
  } catch (err) {
    if (isCancellation(err)) {
      await finish('cancelled');
      throw err;
    }
    if (err instanceof ActivityFailure || (isStepFailure(err) && !(err instanceof ApplicationFailure))) return fail(codeOf(err));
    throw err;
  }
}
