import { isCancellation, sleep } from '@temporalio/workflow';
import { trackProgress } from '../../workflows/progress';
import type { SteppedJobInput, SteppedJobResult } from './steppedJob.contract';

/** Test-only: advances its progress one step per `stepMs`, so tests can watch it and cancel it mid-way. */
export async function steppedJobWorkflow(input: SteppedJobInput): Promise<SteppedJobResult> {
  const progress = trackProgress('working', input.steps);
  try {
    for (let step = 0; step < input.steps; step++) {
      await sleep(input.stepMs);
      progress.advance();
    }
  } catch (err) {
    // A cancel interrupts the sleep: record it and close as canceled (rethrowing keeps that status).
    if (isCancellation(err)) progress.warn('canceled on request');
    throw err;
  }
  progress.phase('done', input.steps);
  return { steps: input.steps };
}
