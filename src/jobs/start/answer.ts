import type { RouteResult } from '../../http/route';
import { jobPath } from '../../temporal/jobIds';
import type { StartAndWaitOutcome } from '../../temporal/startAndWait';
import { acceptedJob } from '../accepted';
import type { Job } from '../schemas';
import { preferenceApplied, type JobWait } from './wait';

/** Where the caller polls a job: the agent twin of the jobs routes for an agent key. */
export const jobsBaseOf = (auth: { kind: string }): string => (auth.kind === 'agent' ? '/api/agent/jobs' : '/api/jobs');

/** The answer with `Preference-Applied` added when the request's preferences decided it (a 202 is the asynchronous answer). */
export function withPreferenceApplied(result: RouteResult, wait: JobWait): RouteResult {
  const applied = preferenceApplied(wait, result.status === 202);
  return Object.keys(applied).length > 0 ? { ...result, headers: { ...result.headers, ...applied } } : result;
}

/**
 * The answer of a start-and-wait route: the result with `finished` (201, or 200 where the route never created
 * anything), or 202 with the job and the `Location` to poll it.
 */
export function jobStartAnswer<T>(
  outcome: StartAndWaitOutcome<T>,
  wait: JobWait,
  answer: { jobsBase?: string; finished?: 200 | 201 } = {},
): RouteResult {
  const result =
    outcome.status === 'running' ? acceptedJob(outcome.job, answer.jobsBase) : { status: answer.finished ?? 201, body: outcome.result };
  return withPreferenceApplied(result, wait);
}

/** 201 with a job the request made (a replay's new job) and its `Location`. */
export function createdJob(job: Job, base = '/api/jobs'): RouteResult {
  return { status: 201, body: job, headers: { Location: jobPath(job.id, base) } };
}
