import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import type { Job } from '../jobs/schemas';
import { describeJob } from '../temporal/jobView';
import { startJob } from '../temporal/jobs';
import { scheduledWorkflowOf } from '../temporal/schedules';
import { SYSTEM_ACCOUNT } from '../temporal/searchAttributes';

/**
 * Runs a schedule's workflow now, outside its cron: a fresh run `cron:<name>:<uuid>` with the same workflow,
 * arguments and search attributes (`AccountId = '_system'`, `JobKind = <name>`) as its scheduled runs.
 */
export async function runScheduleNow(
  deps: Pick<AppDeps, 'temporal' | 'metrics' | 'schedules'>,
  name: string,
  requestId: string,
): Promise<Job> {
  const entry = deps.schedules.find((candidate) => candidate.name === name);
  if (!entry) throw new ApiError(404, 'schedule_not_found', `no schedule named ${JSON.stringify(name.slice(0, 100))}`);
  const started = await startJob(deps.temporal, deps.metrics, scheduledWorkflowOf(entry), {
    accountId: SYSTEM_ACCOUNT,
    args: entry.args,
    requestId,
    workflowId: `cron:${entry.name}:${randomUUID()}`,
  });
  const described = await describeJob(deps.temporal, started.id);
  if (!described)
    throw new ApiError(503, 'temporal_unavailable', 'the run started but cannot be read yet; retry shortly', { retryAfterSeconds: 2 });
  return described.job;
}
