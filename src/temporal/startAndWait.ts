import { isGrpcCancelledError, isGrpcDeadlineError, WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import type { ArgsOf, ResultOf, WorkflowContract } from '../../workflows/defineWorkflow';
import type { AppDeps } from '../deps';
import type { Job } from './jobJson';
import { GENERIC_FAILURE, jobFailureError, jobFailureOf } from './failures';
import { describeJob } from './jobView';
import { startJob, type StartedJob, type StartJobInput } from './jobs';
import { isUnavailable, temporalUnavailable } from './rpc';

export type StartAndWaitOutcome<T> = { status: 'completed'; jobId: string; result: T } | { status: 'running'; job: Job };

type WaitDeps = Pick<AppDeps, 'temporal' | 'logger'>;

/** How long the closing read of a run that already closed may take. */
const CLOSED_RESULT_MS = 5_000;

/**
 * Waits for a run's result under a client deadline: the SDK never gives up on a result wait by itself.
 * The deadline is a gRPC deadline on the long poll, so nothing (no timer, no open call) outlives it.
 * `{ done: false }` when the bound passed; throws the job's ApiError when the job failed.
 */
async function waitForResult<T>(
  deps: WaitDeps,
  jobId: string,
  handle: WorkflowHandle,
  ms: number,
): Promise<{ done: true; value: T } | { done: false }> {
  if (ms <= 0) return { done: false };
  try {
    const value = await deps.temporal.client.withDeadline(Date.now() + ms, () => handle.result() as Promise<T>);
    return { done: true, value };
  } catch (err) {
    if (err instanceof WorkflowFailedError) {
      const failure = jobFailureOf(err);
      if (failure === GENERIC_FAILURE) {
        // The failure's text stays in Temporal's history; the log names the job and the failure's class only.
        deps.logger.warn({ jobId, failure: err.cause?.name }, 'job failed without a stable code');
      }
      throw jobFailureError(failure);
    }
    // The bound passed: our deadline fired (DEADLINE_EXCEEDED), or the server, which got the same deadline,
    // gave up on the long poll first (CANCELLED). No abort signal is set here, so nothing else cancels.
    if (isGrpcDeadlineError(err) || isGrpcCancelledError(err)) return { done: false };
    if (isUnavailable(err)) throw temporalUnavailable(err);
    throw err;
  }
}

/**
 * Starts a job and waits up to `waitSeconds` for its result: the synchronous routes answer 200/201 with
 * `result` when it comes in time, else 202 with `job` (the client polls `GET /api/jobs/{id}`). A job that
 * `afterStart` runs once the job is started or attached to (it may refuse the request by throwing). A job that
 * fails within the bound throws the ApiError of its coded failure (`job_failed` 500 when it has no code;
 * `job_canceled`/`job_terminated` 409, `job_timed_out` 504 when it closed that way).
 */
export async function startAndWait<C extends WorkflowContract>(
  deps: Pick<AppDeps, 'temporal' | 'metrics' | 'logger'>,
  contract: C,
  input: StartJobInput<ArgsOf<C>>,
  options: { waitSeconds: number; afterStart?: (jobId: string) => Promise<void> },
): Promise<StartAndWaitOutcome<ResultOf<C>>> {
  const started = await startJob(deps.temporal, deps.metrics, contract, input);
  await options.afterStart?.(started.id);
  return waitForStartedJob(deps, started, options.waitSeconds);
}

/** The wait of startAndWait, for a job its caller started (or attached to) itself. */
export async function waitForStartedJob<C extends WorkflowContract>(
  deps: WaitDeps,
  started: StartedJob<C>,
  waitSeconds: number,
): Promise<StartAndWaitOutcome<ResultOf<C>>> {
  type T = ResultOf<C>;
  const waited = await waitForResult<T>(deps, started.id, started.handle, waitSeconds * 1000);
  if (waited.done) return { status: 'completed', jobId: started.id, result: waited.value };

  const described = await describeJob(deps.temporal, started.id);
  if (!described) throw temporalUnavailable();
  if (described.job.status === 'running') return { status: 'running', job: described.job };
  // It closed between the bound and the read: answer as if it had closed in time.
  const closed = await waitForResult<T>(deps, started.id, started.handle, CLOSED_RESULT_MS);
  if (closed.done) return { status: 'completed', jobId: started.id, result: closed.value };
  throw temporalUnavailable();
}
