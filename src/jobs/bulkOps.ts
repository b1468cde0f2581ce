import { isGrpcServiceError } from '@temporalio/client';
import type { BulkFilter } from '../../workflows/jobsBulk.contract';
import { MAX_BULK_REPLAY } from '../../workflows/jobsBulk.contract';
import type { TemporalDeps } from '../deps';
import { ApiError } from '../http/errors';
import type { Metrics } from '../http/metrics';
import { isPlausibleWorkflowId } from '../temporal/jobIds';
import { accountOfRun, describeRun, jobStatusOf } from '../temporal/jobView';
import { withTemporal } from '../temporal/rpc';
import { bulkCancelQuery, bulkReplayQuery } from './bulkQuery';
import { replayJob } from './replayService';
import { listRuns } from './visibility';

// The steps of a `jobs-bulk` workflow (activities/jobsBulk.ts runs them), with the worker's Temporal client.

// gRPC status ALREADY_EXISTS (grpc-js is not a direct dependency).
const ALREADY_EXISTS = 6;
const BATCH_REASON = 'bulk cancel requested through the Workyard API';

/** Ids the account owns and may act on; each other listed id (missing, another account's, closed) is refused. */
async function ownedRunning(temporal: TemporalDeps, accountId: string, jobIds: string[]): Promise<string[]> {
  const owned: string[] = [];
  for (const id of jobIds) {
    if (!isPlausibleWorkflowId(id)) continue;
    const run = await describeRun(temporal, id);
    if (run && accountOfRun(run) === accountId && jobStatusOf(run) === 'running') owned.push(id);
  }
  return owned;
}

export interface BulkCancelStart {
  /** A batch operation was started (false when no listed id could be canceled). */
  started: boolean;
  /** Listed ids refused before the batch: missing, another account's, or not running. */
  refused: number;
}

/**
 * Starts Temporal's batch cancel: by the account's visibility query, or by the listed ids the account owns that run.
 * A retried step whose batch already started (same `batchJobId`) goes on with it.
 */
export async function startBulkCancel(
  temporal: TemporalDeps,
  input: { accountId: string; filter?: BulkFilter; jobIds?: string[]; asOf?: string; batchJobId: string },
): Promise<BulkCancelStart> {
  const { client, namespace } = temporal;
  let refused = 0;
  let target: { visibilityQuery: string } | { executions: Array<{ workflowId: string }> };
  if (input.jobIds) {
    const owned = await ownedRunning(temporal, input.accountId, input.jobIds);
    refused = input.jobIds.length - owned.length;
    if (owned.length === 0) return { started: false, refused };
    target = { executions: owned.map((workflowId) => ({ workflowId })) };
  } else {
    target = { visibilityQuery: bulkCancelQuery(input.accountId, input.filter ?? {}, input.asOf) };
  }
  try {
    await withTemporal(client, () =>
      client.workflowService.startBatchOperation({
        namespace,
        jobId: input.batchJobId,
        reason: BATCH_REASON,
        ...target,
        cancellationOperation: { identity: 'workyard-jobs-bulk' },
      }),
    );
  } catch (err) {
    if (!(isGrpcServiceError(err) && err.code === ALREADY_EXISTS)) throw err;
  }
  return { started: true, refused };
}

export interface BatchProgress {
  state: 'running' | 'completed' | 'failed';
  total: number;
  succeeded: number;
  failed: number;
}

// BatchOperationState: 1 running, 2 completed, 3 failed (the proto enum's values).
const BATCH_COMPLETED = 2;
const BATCH_FAILED = 3;

export async function batchProgress(temporal: TemporalDeps, batchJobId: string): Promise<BatchProgress> {
  const { client, namespace } = temporal;
  const batch = await withTemporal(client, () => client.workflowService.describeBatchOperation({ namespace, jobId: batchJobId }));
  const state = batch.state === BATCH_COMPLETED ? 'completed' : batch.state === BATCH_FAILED ? 'failed' : 'running';
  return {
    state,
    total: Number(batch.totalOperationCount ?? 0),
    succeeded: Number(batch.completeOperationCount ?? 0),
    failed: Number(batch.failureOperationCount ?? 0),
  };
}

/** The jobs a bulk replay acts on: the listed ids as given (each replay checks its own), or the filter's first MAX_BULK_REPLAY. */
export async function replayTargets(
  temporal: TemporalDeps,
  input: { accountId: string; filter?: BulkFilter; jobIds?: string[]; asOf?: string },
): Promise<{ ids: string[] }> {
  if (input.jobIds) return { ids: input.jobIds.slice(0, MAX_BULK_REPLAY) };
  const query = bulkReplayQuery(input.accountId, input.filter ?? {}, input.asOf);
  const ids: string[] = [];
  let token: Buffer | undefined;
  do {
    const page = await listRuns(temporal, query, 100, token);
    ids.push(...page.runs.map((run) => run.workflowId));
    token = page.nextPageToken ? Buffer.from(page.nextPageToken) : undefined;
  } while (token && ids.length < MAX_BULK_REPLAY);
  return { ids: [...new Set(ids)].slice(0, MAX_BULK_REPLAY) };
}

export type ReplayOutcome = { replayed: true; jobId: string } | { replayed: false; code: string };

/** One replay of a bulk replay: a refusal (a coded 4xx) is this job's outcome, anything else is retried by Temporal. */
export async function replayOne(
  temporal: TemporalDeps,
  metrics: Metrics,
  input: { accountId: string; jobId: string; key: string; requestId: string },
): Promise<ReplayOutcome> {
  try {
    const job = await replayJob(temporal, metrics, {
      accountId: input.accountId,
      id: input.jobId,
      key: input.key,
      requestId: input.requestId,
    });
    return { replayed: true, jobId: job.id };
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return { replayed: false, code: err.code };
    throw err;
  }
}
