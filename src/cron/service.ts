import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import type { Job } from '../jobs/schemas';
import { describeJob } from '../temporal/jobView';
import { startJob } from '../temporal/jobs';
import { scheduledWorkflowOf } from '../temporal/schedules';
import { SYSTEM_ACCOUNT } from '../temporal/searchAttributes';
import { runNowArgs, type RunNowRequest } from './runNowOptions';
import { entryOf } from './scheduleControls';
import { RUN_NOW_MEMO_KEY, scheduleRunPath } from './scheduleRunJson';

export type StartedRun = Job & { run_url: string };

/**
 * Runs a schedule's workflow now, outside its cron: a fresh run `cron:<name>:<uuid>` with the same workflow and search
 * attributes (`AccountId = '_system'`, `JobKind = <name>`) as its scheduled runs, and its arguments with the options
 * given (validated first: nothing starts on a refusal). The options are kept in the memo, shown on the run.
 */
export async function runScheduleNow(
  deps: Pick<AppDeps, 'temporal' | 'metrics' | 'schedules' | 'db'>,
  name: string,
  options: RunNowRequest,
  requestId: string,
): Promise<StartedRun> {
  const entry = entryOf(deps, name);
  const args = await runNowArgs(deps, entry, options);
  const started = await startJob(deps.temporal, deps.metrics, scheduledWorkflowOf(entry), {
    accountId: SYSTEM_ACCOUNT,
    args,
    requestId,
    workflowId: `cron:${entry.name}:${randomUUID()}`,
    memo: { [RUN_NOW_MEMO_KEY]: options },
  });
  const described = await describeJob(deps.temporal, started.id);
  if (!described)
    throw new ApiError(503, 'temporal_unavailable', 'the run started but cannot be read yet; retry shortly', { retryAfterSeconds: 2 });
  return { ...described.job, run_url: scheduleRunPath(entry.name, started.id) };
}
