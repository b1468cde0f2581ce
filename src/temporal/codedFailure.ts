import { ApplicationFailure } from '@temporalio/common';

// Safe to import from workflow code: no I/O, only @temporalio/common.

/** A stable error code: snake_case, what API clients branch on. */
const STABLE_CODE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export function isStableCode(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 64 && STABLE_CODE.test(value);
}

/**
 * First detail of a coded failure: the HTTP status the API answers with (400–599; 422 when absent), and the members
 * of the coded error a client branches on besides its code, under their names in the error body (an external
 * platform's status, the wait before a retry, field problems, extra members), so a job's failure answers exactly as
 * the same error thrown in the request would.
 */
export interface CodedFailureDetails {
  status?: number;
  upstreamStatus?: number;
  retry_after_seconds?: number;
  errors?: Array<{ path: string; message: string }>;
  details?: Record<string, unknown>;
}

/**
 * The failure a workflow or activity throws when work is refused for a reason the client should see:
 * `type` is the stable code, the message is shown as is, `details[0].status` picks the HTTP status.
 * Non-retryable by default: a rule that refused the work refuses it again.
 */
export function codedFailure(code: string, message: string, options: { status?: number; retryable?: boolean } = {}): ApplicationFailure {
  if (!isStableCode(code)) throw new TypeError(`not a stable error code: ${code}`);
  const details: CodedFailureDetails = options.status === undefined ? {} : { status: options.status };
  return ApplicationFailure.create({ type: code, message, nonRetryable: !options.retryable, details: [details] });
}
