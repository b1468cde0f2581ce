import { jobPath } from '../temporal/jobIds';
import type { Job } from './schemas';

/** A job a route answers with its status, and where to poll it (`Location`). */
export interface JobAnswer<S extends number> {
  status: S;
  body: Job;
  headers: Record<string, string>;
}

/** The 202 a route answers when its job outlives the request: the job, and where to poll it. */
export function acceptedJob(job: Job, base = '/api/jobs'): JobAnswer<202> {
  return { status: 202, body: job, headers: { Location: jobPath(job.id, base) } };
}

/** OpenAPI entry of that 202, for the `responses` of routes that start jobs. */
export const ACCEPTED_JOB_HEADERS = { Location: 'Where to poll the job: `/api/jobs/{id}` (or `/api/agent/jobs/{id}` on agent routes).' };
