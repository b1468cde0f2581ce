import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WorkflowExecutionInfo } from '@temporalio/client';
// The SDK's own decoder of visibility rows (search attributes, memo); `client.workflow.list()` hides page tokens.
import { executionInfoFromRaw } from '@temporalio/client/lib/helpers';
import type { TemporalDeps } from '../deps';
import { ApiError } from '../http/errors';
import { withTemporal } from '../temporal/rpc';
import type { JobListFilters, JobStatus } from './schemas';

const EXECUTION_STATUS: Record<JobStatus, string> = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  canceled: 'Canceled',
  terminated: 'Terminated',
  timed_out: 'TimedOut',
};

/** A visibility string literal. Values are already validated (uuids, enums, job kinds); quotes are escaped anyway. */
function literal(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** What a visibility query can narrow by; `from` / `to` are RFC 3339 instants bounding the start time (to exclusive). */
export type VisibilityFilters = Pick<JobListFilters, 'kind' | 'status' | 'content_id' | 'tag'> & { from?: string; to?: string };

/** The visibility query of one account's jobs; a continued-as-new run is one job, so only its open run is listed. */
export function visibilityQuery(accountId: string, filters: VisibilityFilters): string {
  const clauses = [`AccountId = ${literal(accountId)}`];
  if (filters.kind) clauses.push(`JobKind = ${literal(filters.kind)}`);
  if (filters.content_id) clauses.push(`ContentId = ${literal(filters.content_id)}`);
  if (filters.tag) clauses.push(`Tags = ${literal(filters.tag)}`);
  if (filters.from) clauses.push(`StartTime >= ${literal(filters.from)}`);
  if (filters.to) clauses.push(`StartTime < ${literal(filters.to)}`);
  clauses.push(filters.status ? `ExecutionStatus = ${literal(EXECUTION_STATUS[filters.status])}` : `ExecutionStatus != 'ContinuedAsNew'`);
  return clauses.join(' AND ');
}

/*
 * Cursors: Temporal pages visibility by an opaque token, so the API pages by cursor (no page number, no total).
 * The cursor is the token (base64url) plus a MAC over the token and the query: a cursor only continues the
 * listing it came from (same account, same filters), and a forged token never reaches Temporal, which would
 * answer a malformed one with a retried internal error instead of a clear 400.
 */
function mac(hashKey: string, query: string, token: Buffer): Buffer {
  return createHmac('sha256', hashKey).update(query).update('\n').update(token).digest().subarray(0, 16);
}

export function encodeCursor(hashKey: string, query: string, token: Uint8Array): string {
  const bytes = Buffer.from(token);
  return `${bytes.toString('base64url')}.${mac(hashKey, query, bytes).toString('base64url')}`;
}

const invalidCursor = () => new ApiError(400, 'invalid_cursor', 'cursor is not a next_cursor of this listing (same filters)');

export function decodeCursor(hashKey: string, query: string, cursor: string): Buffer {
  const match = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  if (!match) throw invalidCursor();
  const token = Buffer.from(match[1], 'base64url');
  const given = Buffer.from(match[2], 'base64url');
  if (given.length !== 16 || !timingSafeEqual(given, mac(hashKey, query, token))) throw invalidCursor();
  return token;
}

export interface VisibilityPage {
  runs: WorkflowExecutionInfo[];
  nextPageToken: Uint8Array | null;
}

/** One page of runs matching `query`. Visibility is eventually consistent: a run started a moment ago may be missing. */
export async function listRuns(temporal: TemporalDeps, query: string, pageSize: number, token?: Buffer): Promise<VisibilityPage> {
  const { client, namespace } = temporal;
  const response = await withTemporal(client, () =>
    client.workflowService.listWorkflowExecutions({
      namespace,
      query,
      pageSize,
      nextPageToken: token,
    }),
  );
  const converter = client.workflow.options.loadedDataConverter;
  const runs = await Promise.all(response.executions.map((raw) => executionInfoFromRaw(raw, converter, raw, namespace)));
  const next = response.nextPageToken;
  return { runs, nextPageToken: next && next.length > 0 ? next : null };
}
