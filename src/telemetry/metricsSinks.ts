import type { InjectedSinks } from '@temporalio/worker';
import type { JobMetricsSinks } from '../../workflows/metricsInterceptor';
import { boundedLabel, domainMetrics } from './metrics';

/** The worker side of workflows/metricsInterceptor.ts: job closes become counters, never history events. */
export function jobMetricsSinks(): InjectedSinks<JobMetricsSinks> {
  return {
    jobMetrics: {
      closed: {
        fn(_info, close) {
          const kind = boundedLabel('job:kind', close.kind);
          domainMetrics.jobsClosed.inc({ kind, outcome: close.outcome });
          domainMetrics.jobDuration.observe({ kind, outcome: close.outcome }, Math.max(0, Date.now() - close.startedAt) / 1000);
          if (close.schedule)
            domainMetrics.scheduleRuns.inc({ schedule: boundedLabel('job:kind', close.schedule), outcome: close.outcome });
        },
        callDuringReplay: false,
      },
    },
  };
}
