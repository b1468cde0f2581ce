import {
  ContinueAsNew,
  isCancellation,
  proxySinks,
  TemporalFailure,
  workflowInfo,
  type Sinks,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';
import type { JobCloseOutcome } from './jobCloseOutcome';
import { AccountIdKey, JobKindKey, SYSTEM_ACCOUNT } from './searchAttributes';

export interface JobClose {
  /** The job's JobKind, else its workflow type (children started without search attributes). */
  kind: string;
  outcome: JobCloseOutcome;
  /** Epoch ms the first run of the chain started; the worker measures the duration against its own clock. */
  startedAt: number;
  /** A cron schedule's run (AccountId `_system`): its JobKind is the schedule's name. */
  schedule?: string;
}

export interface JobMetricsSinks extends Sinks {
  jobMetrics: { closed(close: JobClose): void };
}

const { jobMetrics } = proxySinks<JobMetricsSinks>();

/**
 * Reports each job's close to the worker's metrics through a sink: nothing is written to history. Terminations and
 * timeouts happen on the server, where no workflow code runs, so they are not seen here. A thrown non-Temporal error
 * fails the workflow task (retried), not the workflow, so it is not a close.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        try {
          const result = await next(input);
          report('completed');
          return result;
        } catch (err) {
          if (isCancellation(err)) report('canceled');
          else if (err instanceof TemporalFailure && !(err instanceof ContinueAsNew)) report('failed');
          throw err;
        }
      },
    },
  ],
});

function report(outcome: JobClose['outcome']): void {
  const info = workflowInfo();
  if (info.unsafe.isReplaying) return; // replay workers register no sinks; live workers would drop the call anyway
  const kind = info.typedSearchAttributes.get(JobKindKey) ?? info.workflowType;
  const system = info.typedSearchAttributes.get(AccountIdKey) === SYSTEM_ACCOUNT;
  jobMetrics.closed({ kind, outcome, startedAt: info.startTime.getTime(), ...(system ? { schedule: kind } : {}) });
}
