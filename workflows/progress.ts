import { setHandler } from '@temporalio/workflow';
import { progressQuery, type JobProgress } from './progress.contract';

/** Answers the `progress` query for the calling workflow; the returned functions move it along. */
export function trackProgress(initialPhase = 'starting', total: number | null = null) {
  const state: JobProgress = { phase: initialPhase, done: 0, total, warnings: [] };
  setHandler(progressQuery, () => ({ ...state, warnings: [...state.warnings] }));
  return {
    phase(phase: string, nextTotal: number | null = state.total) {
      state.phase = phase;
      state.total = nextTotal;
      state.done = 0;
    },
    advance(by = 1) {
      state.done += by;
    },
    warn(message: string) {
      state.warnings.push(message);
    },
    get current(): JobProgress {
      return state;
    },
  };
}
