import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
import { ApiError } from '../http/errors';
import { isStableCode } from './codedFailure';

/** How a failed job reads to an API client. */
export interface JobFailure {
  code: string;
  message: string;
  /** HTTP status a synchronous route answers with. */
  status: number;
}

export const CODED_FAILURE_DEFAULT_STATUS = 422;

/** Any failure without a stable code: the message stays generic, the details stay in Temporal's history. */
export const GENERIC_FAILURE: JobFailure = { code: 'job_failed', message: 'the job failed', status: 500 };

const CLOSED_WITHOUT_RESULT: Record<'canceled' | 'terminated' | 'timed_out', JobFailure> = {
  canceled: { code: 'job_canceled', message: 'the job was canceled before it finished', status: 409 },
  terminated: { code: 'job_terminated', message: 'the job was terminated before it finished', status: 409 },
  timed_out: { code: 'job_timed_out', message: 'the job ran out of time', status: 504 },
};

/** The failure of a job that closed as canceled, terminated or timed out. */
export function closedJobFailure(status: keyof typeof CLOSED_WITHOUT_RESULT): JobFailure {
  return CLOSED_WITHOUT_RESULT[status];
}

function statusOf(failure: ApplicationFailure): number {
  const first = failure.details?.[0] as { status?: unknown } | undefined;
  const status = first?.status;
  return Number.isInteger(status) && (status as number) >= 400 && (status as number) <= 599
    ? (status as number)
    : CODED_FAILURE_DEFAULT_STATUS;
}

/**
 * Reads a job's failure from the error a result wait threw (WorkflowFailedError) or from any failure chain
 * (ActivityFailure, ChildWorkflowFailure, ApplicationFailure …): the innermost ApplicationFailure whose type is
 * a stable code wins. A run that was canceled, terminated or timed out maps to its own code; anything else is
 * `job_failed` with a generic message, so internals never reach a client.
 */
export function jobFailureOf(err: unknown): JobFailure {
  if (err instanceof WorkflowFailedError) {
    if (err.cause instanceof CancelledFailure) return closedJobFailure('canceled');
    if (err.cause instanceof TerminatedFailure) return closedJobFailure('terminated');
    if (err.cause instanceof TimeoutFailure) return closedJobFailure('timed_out');
  }
  let coded: ApplicationFailure | undefined;
  const seen = new Set<unknown>();
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e instanceof ApplicationFailure && isStableCode(e.type)) coded = e;
  }
  if (!coded) return GENERIC_FAILURE;
  return { code: coded.type as string, message: coded.message || (coded.type as string).replace(/_/g, ' '), status: statusOf(coded) };
}

export function jobFailureError(failure: JobFailure): ApiError {
  return new ApiError(failure.status, failure.code, failure.message);
}
