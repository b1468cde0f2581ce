import {
  WorkflowFailedError,
  WorkflowNotFoundError,
  type Client,
  type WorkflowExecutionDescription,
  type WorkflowExecutionInfo,
} from '@temporalio/client';
import type { TemporalDeps } from '../deps';
import type { Job, JobStatus, JobSummary } from './jobJson';
import { progressQuery, type JobProgress } from '../../workflows/progress.contract';
import { jobFailureOf } from './failures';
import { withTemporal } from './rpc';
import { AccountIdKey, ConnectionIdKey, ContentIdKey, JobKindKey, ProjectIdKey, TagsKey } from './searchAttributes';

/** How long a read waits for a running job to answer its `progress` query (a busy or absent worker answers null). */
export const PROGRESS_QUERY_MS = 1_500;

const STATUS: Record<string, JobStatus> = {
  RUNNING: 'running',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'canceled',
  TERMINATED: 'terminated',
  TIMED_OUT: 'timed_out',
  // The latest run of a chain is what a handle describes; a continued run is still the same open job.
  CONTINUED_AS_NEW: 'running',
  PAUSED: 'running',
};

export function jobStatusOf(info: Pick<WorkflowExecutionInfo, 'status'>): JobStatus {
  return STATUS[info.status.name] ?? 'running';
}

export function temporalUiLink(temporal: Pick<TemporalDeps, 'namespace' | 'uiUrl'>, workflowId: string, runId: string): string | null {
  if (!temporal.uiUrl) return null;
  const base = temporal.uiUrl.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(temporal.namespace)}/workflows/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}/history`;
}

/** The account that owns a run (its `AccountId` search attribute); undefined for a workflow that is not a job. */
export function accountOfRun(info: Pick<WorkflowExecutionInfo, 'typedSearchAttributes'>): string | undefined {
  return info.typedSearchAttributes.get(AccountIdKey);
}

export type RunInfo = Pick<
  WorkflowExecutionInfo,
  'workflowId' | 'runId' | 'type' | 'status' | 'startTime' | 'closeTime' | 'typedSearchAttributes' | 'memo'
>;

/** The memo's `metadata` as strings; the memo is written by startJob, but a run is read defensively. */
function metadataOf(memo: Record<string, unknown> | undefined): Record<string, string> {
  const raw = memo?.metadata;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export function jobSummaryOf(temporal: TemporalDeps, info: RunInfo): JobSummary {
  const attrs = info.typedSearchAttributes;
  return {
    id: info.workflowId,
    kind: attrs.get(JobKindKey) ?? info.type,
    status: jobStatusOf(info),
    run_id: info.runId,
    content_id: attrs.get(ContentIdKey) ?? null,
    connection_id: attrs.get(ConnectionIdKey) ?? null,
    project_id: attrs.get(ProjectIdKey) ?? null,
    tags: attrs.get(TagsKey) ?? [],
    metadata: metadataOf(info.memo),
    replay_of: typeof info.memo?.replayOf === 'string' ? info.memo.replayOf : null,
    created_at: info.startTime.toISOString(),
    closed_at: info.closeTime?.toISOString() ?? null,
    links: { temporal_ui: temporalUiLink(temporal, info.workflowId, info.runId) },
  };
}

async function progressOf(client: Client, workflowId: string, runId: string): Promise<JobProgress | null> {
  try {
    return await client.withDeadline(Date.now() + PROGRESS_QUERY_MS, () =>
      client.workflow.getHandle(workflowId, runId).query(progressQuery),
    );
  } catch {
    // No handler (a workflow that does not report), a worker that does not answer in time, a run that just closed.
    return null;
  }
}

async function outcomeOf(client: Client, workflowId: string, runId: string): Promise<Pick<Job, 'result' | 'error'>> {
  try {
    const result = await withTemporal(client, () => client.workflow.result(workflowId, runId, { followRuns: false }));
    return { result: result ?? null, error: null };
  } catch (err) {
    if (!(err instanceof WorkflowFailedError)) throw err;
    const failure = jobFailureOf(err);
    return { result: null, error: { code: failure.code, message: failure.message } };
  }
}

export type RunDescription = WorkflowExecutionDescription;

/** The latest run of a workflow id, or null when there is none. */
export async function describeRun(temporal: TemporalDeps, workflowId: string): Promise<RunDescription | null> {
  const { client } = temporal;
  try {
    return await withTemporal(client, () => client.workflow.getHandle(workflowId).describe());
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

export type RunOutcome = Pick<Job, 'progress' | 'result' | 'error'>;

/** What a run shows beyond visibility: live progress while running, result or coded error once closed. */
export async function runOutcomeOf(temporal: TemporalDeps, run: Pick<RunInfo, 'workflowId' | 'runId' | 'status'>): Promise<RunOutcome> {
  const outcome: RunOutcome = { progress: null, result: null, error: null };
  const status = jobStatusOf(run);
  if (status === 'running') outcome.progress = await progressOf(temporal.client, run.workflowId, run.runId);
  else if (status === 'completed' || status === 'failed')
    Object.assign(outcome, await outcomeOf(temporal.client, run.workflowId, run.runId));
  return outcome;
}

/** A run as the API shows it: live progress while running, result or coded error once closed. */
export async function jobFromRun(temporal: TemporalDeps, run: RunDescription): Promise<Job> {
  const cancelRequested = Boolean(run.raw.workflowExtendedInfo?.cancelRequested);
  return { ...jobSummaryOf(temporal, run), cancel_requested: cancelRequested, ...(await runOutcomeOf(temporal, run)) };
}

export interface DescribedJob {
  /** The `AccountId` search attribute; undefined when the workflow is not a job. */
  accountId: string | undefined;
  job: Job;
}

/** Describes the latest run of a workflow id as a job, or null when there is none. No account check: callers do it. */
export async function describeJob(temporal: TemporalDeps, workflowId: string): Promise<DescribedJob | null> {
  const run = await describeRun(temporal, workflowId);
  return run ? { accountId: accountOfRun(run), job: await jobFromRun(temporal, run) } : null;
}
