import { WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import type { TemporalDeps } from '../deps';
import type { Metrics } from '../http/metrics';
import { jobId } from './jobIds';
import { withTemporal } from './rpc';
import { AccountIdKey, ConnectionIdKey, ContentIdKey, JobKindKey, ProjectIdKey } from './searchAttributes';

/** The optional search attributes a job can carry besides AccountId and JobKind. */
export interface JobSearchAttributes {
  ContentId?: string;
  ConnectionId?: string;
  ProjectId?: string;
}

export interface StartJobInput {
  kind: string;
  accountId: string;
  /** Workflow function name as exported by the worker bundle. */
  workflowType: string;
  args: unknown[];
  /** Makes the id deterministic: the same key is the same job. A random key when absent. */
  key?: string;
  searchAttributes?: JobSearchAttributes;
  /** Kept in the memo, so an operator can find the request that started a run. */
  requestId: string;
  /** An id that does not follow `<kind>:<accountId>:<key>` (cron runs: `cron:<name>:<uuid>`). */
  workflowId?: string;
  /** More memo fields beside `requestId` (e.g. a request hash that a retry with the same key is compared with). */
  memo?: Record<string, unknown>;
}

export interface StartedJob {
  id: string;
  handle: WorkflowHandle;
}

export function jobSearchAttributes(kind: string, accountId: string, extra: JobSearchAttributes = {}): SearchAttributePair[] {
  const pairs: SearchAttributePair[] = [
    { key: AccountIdKey, value: accountId },
    { key: JobKindKey, value: kind },
  ];
  if (extra.ContentId) pairs.push({ key: ContentIdKey, value: extra.ContentId });
  if (extra.ConnectionId) pairs.push({ key: ConnectionIdKey, value: extra.ConnectionId });
  if (extra.ProjectId) pairs.push({ key: ProjectIdKey, value: extra.ProjectId });
  return pairs;
}

/**
 * Starts a job (a workflow execution) on the task queue.
 *
 * - Conflict policy USE_EXISTING: while a run with this id is open, a repeated start attaches to it, so a
 *   retried request gets the same run instead of an error or a second run.
 * - Reuse policy ALLOW_DUPLICATE_FAILED_ONLY: once a run with this id completed, the same key never runs the
 *   work again; the start attaches to the completed run (its result is the answer). A run that failed, was
 *   canceled, terminated or timed out may be started again with the same key: that is a retry.
 * - `metrics.jobStarts{kind}` counts accepted start requests (attaching to an existing run included).
 */
export async function startJob(temporal: TemporalDeps, metrics: Metrics, input: StartJobInput): Promise<StartedJob> {
  const id = input.workflowId ?? jobId(input.kind, input.accountId, input.key);
  const { client } = temporal;
  try {
    const handle = await withTemporal(client, () => client.workflow.start(input.workflowType, {
      workflowId: id,
      taskQueue: temporal.taskQueue,
      args: input.args,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      typedSearchAttributes: jobSearchAttributes(input.kind, input.accountId, input.searchAttributes),
      memo: { ...input.memo, requestId: input.requestId },
    }));
    metrics.jobStarts.inc({ kind: input.kind });
    return { id, handle };
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    metrics.jobStarts.inc({ kind: input.kind });
    return { id, handle: client.workflow.getHandle(id) };
  }
}
