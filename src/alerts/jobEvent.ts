import { isStableCode } from '../temporal/codedFailure';
import type { JobClosedInput } from '../../workflows/alertEventDelivery.contract';

/** Largest job result (as JSON) an event carries; a larger one is left out (`result_truncated`): fetch the job. */
export const MAX_RESULT_JSON = 8 * 1024;

/**
 * The code and message `GET /api/jobs/{id}` shows (src/temporal/failures.ts `jobFailureOf`): the innermost failure whose
 * type is a stable code, else `job_failed` with a generic message, so internals never leave.
 */
function jobError(failures: NonNullable<JobClosedInput['failures']>): { code: string; message: string } {
  const coded = [...failures].reverse().find((f) => isStableCode(f.type));
  if (!coded?.type) return { code: 'job_failed', message: 'the job failed' };
  return { code: coded.type, message: coded.message || coded.type.replace(/_/g, ' ') };
}

/**
 * The `data` of a job.completed / job.failed event: the job as `GET /api/jobs/{id}` summarises it, with the result
 * (what that route shows, so no secret) or the coded error.
 */
export function jobEventData(input: JobClosedInput): Record<string, unknown> {
  const data: Record<string, unknown> = { job: input.job };
  if (input.job.status !== 'completed') {
    data.error = jobError(input.failures ?? []);
    return data;
  }
  const json = input.result === undefined ? 'null' : JSON.stringify(input.result);
  if (json.length <= MAX_RESULT_JSON) data.result = JSON.parse(json);
  else Object.assign(data, { result: null, result_truncated: true });
  return data;
}
