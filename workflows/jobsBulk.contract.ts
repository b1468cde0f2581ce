import { defineQuery } from '@temporalio/workflow';
import { defineWorkflow } from './defineWorkflow';

/** The contract of the `jobs-bulk` workflow (jobsBulk.ts): one bulk cancel or replay of an account's jobs. No I/O. */

export type BulkAction = 'cancel' | 'replay';

/** The jobs a bulk operation acts on by filter; `from` / `to` are RFC 3339 instants bounding the start time. */
export interface BulkFilter {
  kind?: string;
  status?: 'running' | 'completed' | 'failed' | 'canceled' | 'terminated' | 'timed_out';
  from?: string;
  to?: string;
  tag?: string;
}

/** Exactly one of `filter` and `jobIds`. */
export interface JobsBulkInput {
  accountId: string;
  action: BulkAction;
  filter?: BulkFilter;
  jobIds?: string[];
  /** The request's instant (ISO 8601): a filter covers the jobs that matched then, not those started or closed later. */
  asOf?: string;
  requestId: string;
}

export interface BulkCounts {
  /** Jobs the operation acts on (known once the targets are listed; grows while a batch cancel counts them). */
  total: number;
  /** Canceled (cancellation requested) or replayed. */
  succeeded: number;
  /** Refused (missing, another account's, not running, not replayable …) or failed. */
  failed: number;
}

export const bulkCountsQuery = defineQuery<BulkCounts>('bulkCounts');

/** Most job ids one request names, and most jobs one bulk replay starts (a filter matching more is refused). */
export const MAX_BULK_JOB_IDS = 500;
export const MAX_BULK_REPLAY = 500;
/** Most jobs one bulk cancel by filter acts on (Temporal's batch operation would take more; a narrower filter is safer). */
export const MAX_BULK_CANCEL = 10_000;

export const jobsBulkContract = defineWorkflow<[JobsBulkInput], BulkCounts>('jobsBulk', 'jobs-bulk');
