import { jobsBulkContract, type BulkFilter } from '../../workflows/jobsBulk.contract';
import { REPLAYABLE_KINDS } from './replayable';
import { visibilityQuery } from './visibility';

// Every query starts from visibilityQuery(accountId, …): a bulk operation reaches only the account's jobs by construction.
// The clauses added here are ANDed to it and only narrow it. Kinds match JOB_KIND_PATTERN, so they need no escaping.

/**
 * A filter covers the jobs that matched when the bulk request was made: its visibility query runs later (the batch, the
 * replay listing), and a job started (or, for a replay, closed) in between must not be swept up. `asOf` is the
 * request's instant, written by startBulk; operations started before it existed carry none.
 */
function byRequestTime(attribute: 'StartTime' | 'CloseTime', asOf: string | undefined): string[] {
  return asOf ? [`${attribute} <= '${new Date(asOf).toISOString()}'`] : [];
}

/** The running jobs a bulk cancel by filter acts on; bulk operations themselves are never canceled by one. */
export function bulkCancelQuery(accountId: string, filter: BulkFilter, asOf?: string): string {
  return [
    visibilityQuery(accountId, { ...filter, status: 'running' }),
    `JobKind != '${jobsBulkContract.jobKind}'`,
    ...byRequestTime('StartTime', asOf),
  ].join(' AND ');
}

/** The closed-without-result jobs of replayable kinds a bulk replay by filter acts on (closed by the request, so started too). */
export function bulkReplayQuery(accountId: string, filter: BulkFilter, asOf?: string): string {
  const clauses = [visibilityQuery(accountId, filter)];
  if (!filter.status) clauses.push(`ExecutionStatus IN ('Failed', 'Canceled', 'Terminated', 'TimedOut')`);
  if (!filter.kind) clauses.push(`JobKind IN (${REPLAYABLE_KINDS.map((kind) => `'${kind}'`).join(', ')})`);
  clauses.push(...byRequestTime('CloseTime', asOf));
  return clauses.join(' AND ');
}
