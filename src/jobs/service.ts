import { WorkflowNotFoundError } from '@temporalio/client';
import type { TemporalDeps } from '../deps';
import { ApiError } from '../http/errors';
import { isPlausibleWorkflowId } from '../temporal/jobIds';
import { accountOfRun, describeRun, jobFromRun, jobStatusOf, type RunDescription } from '../temporal/jobView';
import { withTemporal } from '../temporal/rpc';
import type { Job } from './schemas';

export const jobNotFound = () => new ApiError(404, 'job_not_found', 'job not found');

/**
 * The account's run of a job id. Ownership is the run's `AccountId` search attribute, not the id's text;
 * another account's job, a workflow that is no job and an id that cannot exist all answer the same 404.
 */
export async function ownedRun(temporal: TemporalDeps, accountId: string, id: string): Promise<RunDescription> {
  if (!isPlausibleWorkflowId(id)) throw jobNotFound();
  const run = await describeRun(temporal, id);
  if (!run || accountOfRun(run) !== accountId) throw jobNotFound();
  return run;
}

export async function getJob(temporal: TemporalDeps, accountId: string, id: string): Promise<Job> {
  return jobFromRun(temporal, await ownedRun(temporal, accountId, id));
}

const notRunning = (status: string) => new ApiError(409, 'job_not_running', `the job is ${status}; only a running job can be canceled`);

/**
 * Requests cancellation; the workflow decides how to wind down (it reports `canceled` once it has).
 * Asking again while the request is pending is harmless and answers the same way.
 */
export async function cancelJob(temporal: TemporalDeps, accountId: string, id: string): Promise<Job> {
  const run = await ownedRun(temporal, accountId, id);
  const status = jobStatusOf(run);
  if (status !== 'running') throw notRunning(status);
  try {
    await withTemporal(temporal.client, () => temporal.client.workflow.getHandle(id, run.runId).cancel());
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw notRunning('closed'); // it closed between the read and the request
    throw err;
  }
  return getJob(temporal, accountId, id);
}
