import { randomUUID } from 'node:crypto';
import type { ArgsOf, ResultOf, WorkflowContract } from '../../../workflows/defineWorkflow';
import type { AppDeps, TemporalDeps } from '../../deps';
import type { Job } from '../../temporal/jobJson';
import { jobId } from '../../temporal/jobIds';
import { startJob, type JobSearchAttributes, type JobStartOptions, type StartedJob } from '../../temporal/jobs';
import { describeJob, describeRun, jobStatusOf, type RunDescription } from '../../temporal/jobView';
import { temporalUnavailable } from '../../temporal/rpc';
import { waitForStartedJob, type StartAndWaitOutcome } from '../../temporal/startAndWait';
import { refuseOtherRequest, requestFingerprint } from './fingerprint';
import type { JobWait } from './wait';

/*
 * The job-start kit: how a request starts a Temporal job, attaches a retry to it, and waits for it.
 *
 * Use it for a request that starts a Temporal job. The job id is the idempotency record: under an Idempotency-Key
 * the id is `<kind>:<account>:[<scope>:]<key>` (jobIds.ts keeps it within the server's 255 characters), so a retry
 * attaches to the same run, running or finished, and the run's memo `requestHash` tells whether it is the same
 * request (attach) or another one (409 `idempotency_key_reused`). Nothing is stored beside the job.
 * A plain write (a row, a message, a secret) declares `idempotent: true` on its route instead: src/http/idempotency.ts
 * stores its first response and replays it to a retry for 24 hours.
 *
 * The route reads `Prefer` into a JobWait (wait.ts) under its configured wait bound, the service calls
 * runJobRequest, and the route answers with jobStartAnswer (answer.ts) and documents PREFER_DOC (docs.ts).
 */

/** What a job-starting request brings besides its own fields. */
export interface JobRequest {
  requestId: string;
  /** The validated Idempotency-Key header; absent: a run of its own. */
  idempotencyKey?: string;
  /** The route's method and path template (`POST /api/marketing/content/{id}/research`), when part of the fingerprint. */
  route?: string;
  /** The request's `tags`, `metadata` and `callback_url` (part of its fingerprint too). */
  options?: JobStartOptions;
  /** How long the request waits for the result (the route's bound, or the client's `Prefer` within it). */
  wait: JobWait;
}

export interface JobStartSpec<C extends WorkflowContract> {
  contract: C;
  accountId: string;
  args: ArgsOf<C>;
  /** The request's own parts (path ids, body fields): with its route and options, its fingerprint. */
  fingerprint: Record<string, unknown>;
  /** What a key belongs to besides the account (an item, a deal): the job id's key is `<scope>:<Idempotency-Key or a UUID>`. */
  keyScope?: string;
  /** The job id's key where the caller keeps its own idempotency record (a turn row) and has compared the request itself. */
  ownKey?: string;
  searchAttributes?: JobSearchAttributes;
  /** Checks a new run needs (standing, allowance, references): skipped when the key attaches to a run. */
  beforeNewRun?: () => Promise<void>;
}

type StartDeps = Pick<AppDeps, 'temporal' | 'metrics' | 'logger'>;

/** A run a start attaches to; one that ended without its result is started again under the same id (jobs.ts). */
const attaches = (run: RunDescription) => ['running', 'completed'].includes(jobStatusOf(run));

function keyOf(request: JobRequest, spec: Pick<JobStartSpec<WorkflowContract>, 'keyScope' | 'ownKey'>): string | undefined {
  if (spec.ownKey !== undefined) return spec.ownKey;
  if (spec.keyScope === undefined) return request.idempotencyKey;
  return `${spec.keyScope}:${request.idempotencyKey ?? randomUUID()}`;
}

/**
 * Starts the request's job, or attaches to the run its Idempotency-Key names when that run is this request's;
 * another request's run is 409 `idempotency_key_reused` before anything is checked or started.
 */
export async function startRequestedJob<C extends WorkflowContract>(
  deps: StartDeps,
  request: JobRequest,
  spec: JobStartSpec<C>,
): Promise<StartedJob<C>> {
  const hash = requestFingerprint(request, spec.fingerprint);
  const key = keyOf(request, spec);
  const keyed = request.idempotencyKey !== undefined && spec.ownKey === undefined;
  const existing = keyed ? await describeRun(deps.temporal, jobId(spec.contract.jobKind, spec.accountId, key)) : null;
  if (existing) refuseOtherRequest(existing.memo, hash);
  const attaching = existing !== null && attaches(existing);
  if (!attaching) await spec.beforeNewRun?.();
  const started = await startJob(deps.temporal, deps.metrics, spec.contract, {
    accountId: spec.accountId,
    args: spec.args,
    requestId: request.requestId,
    key,
    searchAttributes: spec.searchAttributes,
    memo: { requestHash: hash },
    options: request.options,
  });
  if (keyed && !attaching) {
    // Two first requests under one key raced: the one whose request the run was not started with is refused.
    const run = await describeRun(deps.temporal, started.id);
    if (run) refuseOtherRequest(run.memo, hash);
  }
  return started;
}

/** A job just started (or attached to) as the API shows it. */
export async function startedJobOf(temporal: TemporalDeps, id: string): Promise<Job> {
  const described = await describeJob(temporal, id);
  if (!described) throw temporalUnavailable();
  return described.job;
}

/**
 * Starts (or attaches to) the request's job and waits for it as the request's JobWait says: `completed` with the
 * result, or `running` with the job for a 202 (the job as it is right after the start when the client asked for
 * the answer at once, whatever its state). A job that fails within the wait throws its coded ApiError.
 */
export async function runJobRequest<C extends WorkflowContract>(
  deps: StartDeps,
  request: JobRequest,
  spec: JobStartSpec<C>,
): Promise<StartAndWaitOutcome<ResultOf<C>>> {
  const started = await startRequestedJob(deps, request, spec);
  if (request.wait.atOnce) return { status: 'running', job: await startedJobOf(deps.temporal, started.id) };
  return waitForStartedJob(deps, started, request.wait.seconds);
}
