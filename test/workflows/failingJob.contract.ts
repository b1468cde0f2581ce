import { defineWorkflow } from '../../workflows/defineWorkflow';

/** Test-only workflow's contract (failingJob.ts). */

export interface FailingJobInput {
  /** A stable code; null fails without one (a type that is not snake_case, as an unexpected error would). */
  code: string | null;
  message: string;
  status?: number;
  afterMs?: number;
}

export const failingJobContract = defineWorkflow<[FailingJobInput], never>('failingJobWorkflow', 'test_failing');
