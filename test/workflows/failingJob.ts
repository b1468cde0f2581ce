import { ApplicationFailure, sleep } from '@temporalio/workflow';
import { codedFailure } from '../../src/temporal/codedFailure';
import type { FailingJobInput } from './failingJob.contract';

/** Test-only: fails with a coded ApplicationFailure (or an uncoded one), after an optional pause. */
export async function failingJobWorkflow(input: FailingJobInput): Promise<never> {
  if (input.afterMs) await sleep(input.afterMs);
  if (input.code === null) throw ApplicationFailure.create({ type: 'InternalDatabaseError', message: input.message, nonRetryable: true });
  throw codedFailure(input.code, input.message, { status: input.status });
}
