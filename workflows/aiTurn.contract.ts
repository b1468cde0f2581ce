import { defineSignal } from '@temporalio/workflow';
import { defineWorkflow, withSignals } from './defineWorkflow';

/** The contract of a department AI chat turn (aiTurn.ts). No I/O. */

export interface AiTurnInput {
  accountId: string;
  turnId: string;
  /** The turn's bound (AI_TURN_MAX_SECONDS at start), confirmation waits included. */
  maxSeconds: number;
  /** Model calls at most (AI_TURN_MAX_STEPS at start). */
  maxSteps: number;
}

export interface AiTurnResult {
  turn_id: string;
  status: 'completed' | 'failed' | 'cancelled';
  /** Set when the turn failed: `turn_timed_out`, `too_many_steps`, `confirmation_timed_out`, a model error code … */
  code?: string;
}

/** The user's answer to a confirm-gated tool call the turn is waiting on. */
export interface AiTurnConfirmation {
  call_id: string;
  approve: boolean;
}

export const aiTurnConfirmSignal = defineSignal<[AiTurnConfirmation]>('confirm');

export const aiTurnContract = withSignals(defineWorkflow<[AiTurnInput], AiTurnResult>('aiTurn', 'ai-turn'), {
  confirm: aiTurnConfirmSignal,
});
