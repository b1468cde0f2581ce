import { defineWorkflow } from '../../workflows/defineWorkflow';

/** Test-only workflow's contract (steppedJob.ts). */

export interface SteppedJobInput {
  steps: number;
  stepMs: number;
}

export interface SteppedJobResult {
  steps: number;
}

export const steppedJobContract = defineWorkflow<[SteppedJobInput], SteppedJobResult>('steppedJobWorkflow', 'test_stepped');
