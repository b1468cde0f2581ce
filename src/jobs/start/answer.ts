import { jobPath } from '../../temporal/jobIds';
import type { StartAndWaitOutcome } from '../../temporal/startAndWait';
import { acceptedJob, type JobAnswer } from '../accepted';
import type { Job } from '../schemas';
import { preferenceApplied, type JobWait } from './wait';

/** Where the caller polls a job: the agent twin of the jobs routes for an agent key. */
export const jobsBaseOf = (auth: { kind: string }): string => (auth.kind === 'agent' ? '/api/agent/jobs' : '/api/jobs');

/** The answer with `Preference-Applied` added when the request's preferences decided it (a 202 is the asynchronous answer). */
export function withPreferenceApplied<A extends { status: number; headers?: Record<string, string> }>(result: A, wait: JobWait): A {
  const applied = preferenceApplied(wait, result.status === 202);
  return Object.keys(applied).length > 0 ? { ...result, headers: { ...result.headers, ...applied } } : result;
}

/** What a start-and-wait route answers: the result with its `finished` status, or 202 with the job. */
export type JobStartAnswer<T, F extends 200 | 201> = { status: F; body: T; headers?: Record<string, string> } | JobAnswer<202>;

/**
 * The answer of a start-and-wait route: the result with `finished` (201, or 200 where the route never created
 * anything), or 202 with the job and the `Location` to poll it.
 */
export function jobStartAnswer<T>(outcome: StartAndWaitOutcome<T>, wait: JobWait, answer?: { jobsBase?: string }): JobStartAnswer<T, 201>;
export function jobStartAnswer<T, F extends 200 | 201>(
  outcome: StartAndWaitOutcome<T>,
  wait: JobWait,
  answer: { jobsBase?: string; finished: F },
): JobStartAnswer<T, F>;
export function jobStartAnswer<T>(
  outcome: StartAndWaitOutcome<T>,
  wait: JobWait,
  answer: { jobsBase?: string; finished?: 200 | 201 } = {},
): JobStartAnswer<T, 200 | 201> {
  const result: JobStartAnswer<T, 200 | 201> =
    outcome.status === 'running' ? acceptedJob(outcome.job, answer.jobsBase) : { status: answer.finished ?? 201, body: outcome.result };
  return withPreferenceApplied(result, wait);
}

/** 201 with a job the request made (a replay's new job) and its `Location`. */
export function createdJob(job: Job, base = '/api/jobs'): JobAnswer<201> {
  return { status: 201, body: job, headers: { Location: jobPath(job.id, base) } };
}
