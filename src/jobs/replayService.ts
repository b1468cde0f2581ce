// The SDK's own payload decoding with the client's data converter (the same one that encoded the start).
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import type { WorkflowContract } from '../../workflows/defineWorkflow';
import type { TemporalDeps } from '../deps';
import { ApiError } from '../http/errors';
import type { Metrics } from '../http/metrics';
import { startJob, type JobStartOptions } from '../temporal/jobs';
import { jobStatusOf, type RunDescription } from '../temporal/jobView';
import { withTemporal } from '../temporal/rpc';
import { ConnectionIdKey, ContentIdKey, JobKindKey, ProjectIdKey, TagsKey } from '../temporal/searchAttributes';
import { replayPolicyOf } from './replayable';
import type { Job, JobStatus } from './schemas';
import { jobNotFound, ownedRun } from './service';
import { startedJobOf } from './start/kit';

/** The statuses a replay starts again from: the job ended without its result. */
export const REPLAYABLE_STATUSES: readonly JobStatus[] = ['failed', 'canceled', 'timed_out', 'terminated'];

export const jobNotReplayable = (kind: string, reason: string) =>
  new ApiError(409, 'job_not_replayable', `a ${kind} job cannot be replayed: ${reason}`);

const notClosed = () => new ApiError(409, 'job_not_closed', 'the job is still running; cancel it or wait until it closes, then replay it');

const completed = () =>
  new ApiError(409, 'job_completed', 'the job completed; only a failed, canceled, timed-out or terminated job is replayed');

export interface ReplayRequest {
  accountId: string;
  /** The job to replay. */
  id: string;
  requestId: string;
  /** Makes the new job's id deterministic (a bulk replay's retried step lands on the same job); random when absent. */
  key?: string;
}

/** The arguments the run was started with: the first event of its history. */
async function startArgs(temporal: TemporalDeps, run: RunDescription): Promise<unknown[]> {
  const { client, namespace } = temporal;
  const history = await withTemporal(client, () =>
    client.workflowService.getWorkflowExecutionHistory({
      namespace,
      execution: { workflowId: run.workflowId, runId: run.runId },
      maximumPageSize: 1,
    }),
  );
  const started = history.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  if (!started) throw jobNotFound();
  return decodeArrayFromPayloads(client.workflow.options.loadedDataConverter, started.input?.payloads);
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  return entries.every(([, v]) => typeof v === 'string') ? Object.fromEntries(entries) : undefined;
}

/** What the caller attached to the old job (tags, metadata, callback URL) goes with the new one. */
function optionsOf(run: RunDescription): JobStartOptions {
  const memo = run.memo ?? {};
  const tags = strings(memo.tags) ?? run.typedSearchAttributes.get(TagsKey);
  const metadata = stringRecord(memo.metadata);
  const callbackUrl = typeof memo.callbackUrl === 'string' ? memo.callbackUrl : undefined;
  return { ...(tags?.length ? { tags } : {}), ...(metadata ? { metadata } : {}), ...(callbackUrl ? { callbackUrl } : {}) };
}

/**
 * Starts a failed, canceled, timed-out or terminated job again as a new job: same workflow type, kind, original
 * input, search attributes and start options; memo `replayOf` names the old job. Refusals, in order: 404 for a job
 * that is not the account's, 409 `job_not_replayable` for a kind whose input is not the work (replayable.ts),
 * 409 `job_not_closed` while it runs, 409 `job_completed` once it has its result.
 */
export async function replayJob(temporal: TemporalDeps, metrics: Metrics, request: ReplayRequest): Promise<Job> {
  const run = await ownedRun(temporal, request.accountId, request.id);
  const attrs = run.typedSearchAttributes;
  const kind = attrs.get(JobKindKey);
  if (!kind) throw jobNotFound();
  const policy = replayPolicyOf(kind);
  if (!policy.replayable) throw jobNotReplayable(kind, policy.reason);
  const status = jobStatusOf(run);
  if (status === 'running') throw notClosed();
  if (status === 'completed') throw completed();

  const contract: WorkflowContract = { workflowType: run.type, jobKind: kind };
  const started = await startJob(temporal, metrics, contract, {
    accountId: request.accountId,
    args: await startArgs(temporal, run),
    key: request.key,
    requestId: request.requestId,
    searchAttributes: { ContentId: attrs.get(ContentIdKey), ConnectionId: attrs.get(ConnectionIdKey), ProjectId: attrs.get(ProjectIdKey) },
    memo: { replayOf: run.workflowId },
    options: optionsOf(run),
  });
  return startedJobOf(temporal, started.id);
}
