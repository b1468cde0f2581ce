import {
  bulkCountsQuery,
  jobsBulkContract,
  MAX_BULK_CANCEL,
  MAX_BULK_REPLAY,
  type BulkAction,
  type BulkCounts,
  type JobsBulkInput,
} from '../../workflows/jobsBulk.contract';
import type { AppDeps } from '../deps';
import { ApiError } from '../http/errors';
import { isPlausibleWorkflowId } from '../temporal/jobIds';
import { startJob } from '../temporal/jobs';
import { accountOfRun, describeRun, jobStatusOf, PROGRESS_QUERY_MS } from '../temporal/jobView';
import { withTemporal } from '../temporal/rpc';
import { JobKindKey } from '../temporal/searchAttributes';
import { bulkCancelQuery, bulkReplayQuery } from './bulkQuery';
import type { BulkOperation, BulkRequest } from './bulkSchemas';
import { replayPolicyOf } from './replayable';
import { jobNotReplayable } from './replayService';

type BulkDeps = Pick<AppDeps, 'temporal' | 'metrics'>;

export const bulkNotFound = () => new ApiError(404, 'bulk_operation_not_found', 'bulk operation not found');

const tooMany = (count: number, max: number, action: BulkAction) =>
  new ApiError(
    422,
    'bulk_too_many_jobs',
    `the filter matches ${count} jobs; one bulk ${action} acts on at most ${max}: narrow the filter`,
    {
      details: { matched: count, max },
    },
  );

async function countMatching(deps: BulkDeps, query: string): Promise<number> {
  const { client, namespace } = deps.temporal;
  const counted = await withTemporal(client, () => client.workflowService.countWorkflowExecutions({ namespace, query }));
  return Number(counted.count ?? 0);
}

/**
 * Starts a bulk operation as a `jobs-bulk` job of the account. A filter covers the jobs that match it now (`asOf`, the
 * request's instant, bounds the query its workflow runs later) and is counted first: a replay acts on at most
 * MAX_BULK_REPLAY jobs, a cancel on at most MAX_BULK_CANCEL (422 `bulk_too_many_jobs` above). A replay filtered on a
 * kind that cannot be replayed is 409 `job_not_replayable` up front.
 */
export async function startBulk(deps: BulkDeps, accountId: string, body: BulkRequest, requestId: string): Promise<BulkOperation> {
  const input: JobsBulkInput = { accountId, action: body.action, requestId };
  let total: number;
  if (body.job_ids) {
    input.jobIds = [...new Set(body.job_ids)];
    total = input.jobIds.length;
  } else {
    const filter = body.filter ?? {};
    if (body.action === 'replay' && filter.kind) {
      const policy = replayPolicyOf(filter.kind);
      if (!policy.replayable) throw jobNotReplayable(filter.kind, policy.reason);
    }
    const cancel = body.action === 'cancel';
    const asOf = new Date().toISOString();
    total = await countMatching(deps, cancel ? bulkCancelQuery(accountId, filter, asOf) : bulkReplayQuery(accountId, filter, asOf));
    const max = cancel ? MAX_BULK_CANCEL : MAX_BULK_REPLAY;
    if (total > max) throw tooMany(total, max, body.action);
    input.filter = filter;
    input.asOf = asOf;
  }
  const started = await startJob(deps.temporal, deps.metrics, jobsBulkContract, {
    accountId,
    args: [input],
    requestId,
    memo: { bulkAction: body.action },
  });
  const run = await describeRun(deps.temporal, started.id);
  return {
    id: started.id,
    action: body.action,
    status: 'running',
    total,
    succeeded: 0,
    failed: 0,
    created_at: (run?.startTime ?? new Date()).toISOString(),
    completed_at: null,
  };
}

const NO_COUNTS: BulkCounts = { total: 0, succeeded: 0, failed: 0 };

/** The result once completed; else the `bulkCounts` query (a closed run answers it too, replayed by a worker). */
async function countsOf(deps: BulkDeps, workflowId: string, runId: string, completed: boolean): Promise<BulkCounts> {
  const { client } = deps.temporal;
  try {
    if (completed) return await withTemporal(client, () => client.workflow.result(workflowId, runId, { followRuns: false }));
    return await client.withDeadline(Date.now() + PROGRESS_QUERY_MS, () =>
      client.workflow.getHandle(workflowId, runId).query(bulkCountsQuery),
    );
  } catch {
    // A worker that does not answer in time: the counts are unknown for now, the status is not.
    return NO_COUNTS;
  }
}

/** The account's bulk operation, current: counts so far while running, final once closed. */
export async function getBulk(deps: BulkDeps, accountId: string, id: string): Promise<BulkOperation> {
  if (!isPlausibleWorkflowId(id)) throw bulkNotFound();
  const run = await describeRun(deps.temporal, id);
  if (!run || accountOfRun(run) !== accountId || run.typedSearchAttributes.get(JobKindKey) !== jobsBulkContract.jobKind) {
    throw bulkNotFound();
  }
  const status = jobStatusOf(run);
  const action: BulkAction = run.memo?.bulkAction === 'replay' ? 'replay' : 'cancel';
  return {
    id: run.workflowId,
    action,
    status: status === 'running' ? 'running' : status === 'completed' ? 'completed' : 'failed',
    ...(await countsOf(deps, run.workflowId, run.runId, status === 'completed')),
    created_at: run.startTime.toISOString(),
    completed_at: run.closeTime?.toISOString() ?? null,
  };
}
