import { WorkflowExecutionAlreadyStartedError, type WorkflowHandle } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import type { ArgsOf, SignalledContract, SignalPayloadOf, WorkflowContract, WorkflowOf } from '../../workflows/defineWorkflow';
import type { TemporalDeps } from '../deps';
import type { Metrics } from '../http/metrics';
import { jobId } from './jobIds';
import { jobPriority } from './jobPriority';
import { withTemporal } from './rpc';
import type { JobSearchAttributes, JobStartOptions, StartedRun } from './startedRun';
import { AccountIdKey, ConnectionIdKey, ContentIdKey, JobKindKey, ProjectIdKey, TagsKey } from './searchAttributes';

export type { JobSearchAttributes, JobStartOptions, StartedRun } from './startedRun';

/** How to start a job of one workflow; the workflow type and the job kind come from its contract. */
export interface StartJobInput<Args extends unknown[] = unknown[]> {
  accountId: string;
  /** The workflow's arguments, as its contract types them. */
  args: Args;
  /** Makes the id deterministic: the same key is the same job. A random key when absent. */
  key?: string;
  searchAttributes?: JobSearchAttributes;
  /** Kept in the memo, so an operator can find the request that started a run. */
  requestId: string;
  /** An id that does not follow `<kind>:<accountId>:<key>` (cron runs: `cron:<name>:<uuid>`). */
  workflowId?: string;
  /** More memo fields beside `requestId` (e.g. a request hash that a retry with the same key is compared with). */
  memo?: Record<string, unknown>;
  options?: JobStartOptions;
}

/** Hands the run to the job index when the deps have one; the index never fails a start (it logs and catches up). */
export async function indexStartedJob(temporal: TemporalDeps, run: StartedRun): Promise<void> {
  await temporal.jobIndex?.(run);
}

export interface StartedJob<C extends WorkflowContract = WorkflowContract> {
  id: string;
  handle: WorkflowHandle<WorkflowOf<C>>;
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

/** The memo keys of the start options; absent options add none. */
export function jobOptionsMemo(options: JobStartOptions = {}): Record<string, unknown> {
  const memo: Record<string, unknown> = {};
  if (options.tags?.length) memo.tags = options.tags;
  if (options.metadata && Object.keys(options.metadata).length > 0) memo.metadata = options.metadata;
  if (options.callbackUrl) memo.callbackUrl = options.callbackUrl;
  return memo;
}

/** The options' part of an idempotent request's fingerprint: no fields when none were sent, so older hashes still match. */
export function jobOptionsHashed(options: JobStartOptions | undefined): Record<string, unknown> {
  return { tags: options?.tags, metadata: options?.metadata, callback_url: options?.callbackUrl };
}

/** The server refuses a longer static summary (`limit.userMetadataSummarySize`, 400 bytes by default). */
const MAX_SUMMARY_CHARS = 200;

/**
 * What the Temporal UI shows for the run (its static summary and details, markdown): the kind and the tags, then the
 * metadata. Never the callback URL, which may carry the account's token.
 */
export function jobUserMetadata(kind: string, options: JobStartOptions = {}): { staticSummary: string; staticDetails?: string } {
  const full = options.tags?.length ? `${kind} · tags: ${options.tags.join(', ')}` : kind;
  const staticSummary = full.length > MAX_SUMMARY_CHARS ? `${full.slice(0, MAX_SUMMARY_CHARS - 1)}…` : full;
  const entries = Object.entries(options.metadata ?? {});
  if (entries.length === 0) return { staticSummary };
  const lines = entries.map(([key, value]) => `- \`${key}\`: ${value.replace(/\s+/g, ' ')}`);
  return { staticSummary, staticDetails: ['**metadata**', ...lines].join('\n') };
}

function withTags(pairs: SearchAttributePair[], tags: string[] | undefined): SearchAttributePair[] {
  return tags?.length ? [...pairs, { key: TagsKey, value: tags }] : pairs;
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
 * - Priority (jobPriority.ts): interactive over sweeps, the account as the fairness key.
 */
export async function startJob<C extends WorkflowContract>(
  temporal: TemporalDeps,
  metrics: Metrics,
  contract: C,
  input: StartJobInput<ArgsOf<C>>,
): Promise<StartedJob<C>> {
  const kind = contract.jobKind;
  const id = input.workflowId ?? jobId(kind, input.accountId, input.key);
  const { client } = temporal;
  try {
    // The SDK cannot check a generic contract's arguments; this function's signature does.
    const handle = await withTemporal(client, () =>
      client.workflow.start(contract.workflowType, {
        workflowId: id,
        taskQueue: temporal.taskQueue,
        args: input.args,
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
        typedSearchAttributes: withTags(jobSearchAttributes(kind, input.accountId, input.searchAttributes), input.options?.tags),
        memo: { ...input.memo, ...jobOptionsMemo(input.options), requestId: input.requestId },
        priority: jobPriority(input.accountId),
        ...jobUserMetadata(kind, input.options),
      }),
    );
    metrics.jobStarts.inc({ kind });
    await indexStartedJob(temporal, {
      run_id: handle.firstExecutionRunId,
      job_id: id,
      account_id: input.accountId,
      kind,
      searchAttributes: input.searchAttributes,
      options: input.options,
      replayOf: input.memo?.replayOf,
    });
    return { id, handle: handle as WorkflowHandle<WorkflowOf<C>> };
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    metrics.jobStarts.inc({ kind });
    return { id, handle: client.workflow.getHandle<WorkflowOf<C>>(id) };
  }
}

export interface SignalWithStartJobInput<C extends SignalledContract, K extends keyof C['signals']> {
  /** An entity workflow's id (one per entity), not a request-scoped `<kind>:<account>:<key>`. */
  workflowId: string;
  accountId: string;
  args: ArgsOf<C>;
  /** One of the signals the contract names, and its payload. */
  signal: K;
  payload: SignalPayloadOf<C, K>;
  searchAttributes?: JobSearchAttributes;
}

/**
 * Signals an entity workflow, starting it with `args` first when no run is open (a webhook receiver's hand-over).
 * Temporal's defaults apply (no id policies, memo or start metric): a signal to an open run is the common case.
 */
export async function signalWithStartJob<C extends SignalledContract, K extends keyof C['signals'] & string>(
  temporal: TemporalDeps,
  contract: C,
  input: SignalWithStartJobInput<C, K>,
): Promise<WorkflowHandle<WorkflowOf<C>>> {
  const handle = await temporal.client.workflow.signalWithStart<WorkflowOf<WorkflowContract>, [unknown]>(contract.workflowType, {
    workflowId: input.workflowId,
    taskQueue: temporal.taskQueue,
    args: input.args,
    signal: contract.signals[input.signal],
    signalArgs: [input.payload],
    typedSearchAttributes: jobSearchAttributes(contract.jobKind, input.accountId, input.searchAttributes),
    priority: jobPriority(input.accountId),
  });
  await indexStartedJob(temporal, {
    run_id: handle.signaledRunId,
    job_id: input.workflowId,
    account_id: input.accountId,
    kind: contract.jobKind,
    searchAttributes: input.searchAttributes,
  });
  return handle as WorkflowHandle<WorkflowOf<C>>;
}
