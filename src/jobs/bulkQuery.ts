import { jobsBulkContract, type BulkFilter } from '../../workflows/jobsBulk.contract';
import { REPLAYABLE_KINDS } from './replayable';
import { visibilityQuery } from './visibility';

// Every query starts from visibilityQuery(accountId, …): a bulk operation reaches only the account's jobs by construction.
// The clauses added here are ANDed to it and only narrow it. Kinds match JOB_KIND_PATTERN, so they need no escaping.

/** The running jobs a bulk cancel by filter acts on; bulk operations themselves are never canceled by one. */
export function bulkCancelQuery(accountId: string, filter: BulkFilter): string {
  return `${visibilityQuery(accountId, { ...filter, status: 'running' })} AND JobKind != '${jobsBulkContract.jobKind}'`;
}

/** The closed-without-result jobs of replayable kinds a bulk replay by filter acts on. */
export function bulkReplayQuery(accountId: string, filter: BulkFilter): string {
  const clauses = [visibilityQuery(accountId, filter)];
  if (!filter.status) clauses.push(`ExecutionStatus IN ('Failed', 'Canceled', 'Terminated', 'TimedOut')`);
  if (!filter.kind) clauses.push(`JobKind IN (${REPLAYABLE_KINDS.map((kind) => `'${kind}'`).join(', ')})`);
  return clauses.join(' AND ');
}
