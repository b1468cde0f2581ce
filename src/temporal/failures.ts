import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure, TerminatedFailure, TimeoutFailure } from '@temporalio/common';
import { ApiError, type ApiErrorExtra } from '../http/errors';
import { isStableCode, type CodedFailureDetails } from './codedFailure';

/** How a failed job reads to an API client. */
export interface JobFailure {
  code: string;
  message: string;
  /** HTTP status a synchronous route answers with. */
  status: number;
  /** The rest of the coded error the failure carried (codedFailure.ts), for a synchronous route's answer. */
  extra?: ApiErrorExtra;
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

const httpStatus = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 100 && (value as number) <= 599;

function statusOf(failure: ApplicationFailure): number {
  const status = (failure.details?.[0] as CodedFailureDetails | undefined)?.status;
  return httpStatus(status) && status >= 400 ? status : CODED_FAILURE_DEFAULT_STATUS;
}

/** The coded error's other members as the failure carried them; what does not have its shape is left out. */
function extraOf(failure: ApplicationFailure): ApiErrorExtra | undefined {
  const first = failure.details?.[0] as CodedFailureDetails | undefined;
  if (!first || typeof first !== 'object') return undefined;
  const extra: ApiErrorExtra = {};
  if (httpStatus(first.upstreamStatus)) extra.upstreamStatus = first.upstreamStatus;
  if (typeof first.retry_after_seconds === 'number' && first.retry_after_seconds > 0) extra.retryAfterSeconds = first.retry_after_seconds;
  if (Array.isArray(first.errors)) extra.errors = first.errors;
  if (first.details && typeof first.details === 'object' && !Array.isArray(first.details)) extra.details = first.details;
  return Object.keys(extra).length > 0 ? extra : undefined;
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
  const failure: JobFailure = {
    code: coded.type as string,
    message: coded.message || (coded.type as string).replace(/_/g, ' '),
    status: statusOf(coded),
  };
  const extra = extraOf(coded);
  return extra ? { ...failure, extra } : failure;
}

/** The job's failure as the coded error a synchronous route answers: the same body the error had where it was thrown. */
export function jobFailureError(failure: JobFailure): ApiError {
  return new ApiError(failure.status, failure.code, failure.message, failure.extra);
}
