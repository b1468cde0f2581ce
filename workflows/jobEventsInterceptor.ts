import { ApplicationFailure, TemporalFailure } from '@temporalio/common';
import {
  ContinueAsNew,
  isCancellation,
  log,
  patched,
  proxyActivities,
  workflowInfo,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptorsFactory,
  type Next,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { alertEventDeliveryContract, type JobClosedInput } from './alertEventDelivery.contract';
import { emailEventDeliveryContract } from './emailEventDelivery.contract';
import { AccountIdKey, JobKindKey, SYSTEM_ACCOUNT } from './searchAttributes';

/** Histories recorded before this interceptor have no job-closed step; replays of them skip it. */
export const JOB_CLOSED_PATCH = 'job-closed-event';

/** Job kinds whose closing is no account event, with why. */
export const JOB_EVENT_EXCLUDED_KINDS: ReadonlyMap<string, string> = new Map([
  // A delivery's own completion would be an event to deliver: an endless loop of alerts about alerts.
  [alertEventDeliveryContract.jobKind, 'delivers alert events; reporting it would loop'],
  // Webhook plumbing, one run per email event: noise, not work the account started.
  [emailEventDeliveryContract.jobKind, 'delivers email events (webhook plumbing)'],
  // Entity workflows of inbound webhooks, per shop or site connection: they close only when replaced or removed.
  ['commerce-shop', 'inbound webhook entity workflow, not a job'],
  ['site-platform-events', 'inbound webhook entity workflow, not a job'],
]);

// A regular activity, not a local one: at a burst of closes (1,000 scheduled publishes at one instant) local activities
// held the closing jobs' workflow task slots and delayed the other jobs' work (schedule-fire p99 1.59 vs 1.34). Short and
// bounded: the outcome never waits long on its report (a failed report is logged and dropped).
const { recordJobClosed } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 4 },
});

function reportedJob(): { accountId: string; kind: string } | null {
  const info = workflowInfo();
  const accountId = info.typedSearchAttributes.get(AccountIdKey);
  const kind = info.typedSearchAttributes.get(JobKindKey);
  if (!accountId || !kind || JOB_EVENT_EXCLUDED_KINDS.has(kind)) return null;
  return { accountId, kind };
}

/** A sweep (`_system`) is reported only when it completes `partial`: sweep.partial goes to the accounts it left unfinished. */
const sweepLeftWork = (result: unknown) =>
  typeof result === 'object' && result !== null && (result as { partial?: unknown }).partial === true;

/** The ApplicationFailures of the cause chain, outermost first; src/alerts/jobEvent.ts reads the code from them. */
function failuresOf(err: unknown): Array<{ type: string | null; message: string }> {
  const chain: Array<{ type: string | null; message: string }> = [];
  const seen = new Set<unknown>();
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e instanceof ApplicationFailure) chain.push({ type: e.type ?? null, message: e.message });
  }
  return chain;
}

async function report(job: { accountId: string; kind: string }, outcome: Pick<JobClosedInput, 'result' | 'failures'>): Promise<void> {
  const info = workflowInfo();
  const callbackUrl = info.memo?.callbackUrl;
  const input: JobClosedInput = {
    accountId: job.accountId,
    job: {
      id: info.workflowId,
      kind: job.kind,
      status: outcome.failures ? 'failed' : 'completed',
      run_id: info.runId,
      created_at: info.runStartTime ? info.runStartTime.toISOString() : null,
      closed_at: new Date().toISOString(),
    },
    ...outcome,
    ...(typeof callbackUrl === 'string' && callbackUrl ? { callbackUrl } : {}),
  };
  try {
    await recordJobClosed(input);
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('the job-closed event could not be recorded', { kind: job.kind, error: (err as Error).name });
  }
}

/**
 * Reports a job of an account that completes or fails (not one that is canceled, continues as new, or fails its
 * workflow task) to `recordJobClosed` before the outcome is returned or rethrown: the job.completed / job.failed
 * alerts and the job's callback_url. A sweep (`_system`) is reported only when it completes partial (sweep.partial).
 */
class JobEventsInbound implements WorkflowInboundCallsInterceptor {
  async execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const job = reportedJob();
    if (!job) return next(input);
    let result: unknown;
    try {
      result = await next(input);
    } catch (err) {
      // Only a TemporalFailure fails the run; any other error fails the workflow task, which is retried.
      const reported =
        job.accountId !== SYSTEM_ACCOUNT && err instanceof TemporalFailure && !(err instanceof ContinueAsNew) && !isCancellation(err);
      if (reported && patched(JOB_CLOSED_PATCH)) await report(job, { failures: failuresOf(err) });
      throw err;
    }
    const reported = job.accountId !== SYSTEM_ACCOUNT || sweepLeftWork(result);
    if (reported && patched(JOB_CLOSED_PATCH)) await report(job, { result });
    return result;
  }
}

export const interceptors: WorkflowInterceptorsFactory = () => ({ inbound: [new JobEventsInbound()] });
