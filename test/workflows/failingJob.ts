import { ApplicationFailure, sleep } from '@temporalio/workflow';
import { codedFailure } from '../../src/temporal/codedFailure';

export interface FailingJobInput {
  /** A stable code; null fails without one (a type that is not snake_case, as an unexpected error would). */
  code: string | null;
  message: string;
  status?: number;
  afterMs?: number;
}

/** Test-only: fails with a coded ApplicationFailure (or an uncoded one), after an optional pause. */
export async function failingJobWorkflow(input: FailingJobInput): Promise<never> {
  if (input.afterMs) await sleep(input.afterMs);
  if (input.code === null) throw ApplicationFailure.create({ type: 'InternalDatabaseError', message: input.message, nonRetryable: true });
  throw codedFailure(input.code, input.message, { status: input.status });
}
