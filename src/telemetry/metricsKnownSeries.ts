import { EMAIL_SEND_OUTCOMES, JOB_OUTCOMES, LIMITERS, PLATFORMS, boundedLabel, domainMetrics } from './metrics';

/**
 * The values each label of a domain metric can take, for the labels whose values the code fixes in advance (by
 * metric name, then label). Labels missing here are open (job kinds, topics, operations, statuses).
 */
export function knownLabelValues(scheduleNames: readonly string[]): Record<string, Record<string, readonly string[]>> {
  return {
    workyard_jobs_closed_total: { outcome: JOB_OUTCOMES },
    workyard_job_duration_seconds: { outcome: JOB_OUTCOMES },
    workyard_schedule_runs_total: { schedule: scheduleNames, outcome: JOB_OUTCOMES },
    workyard_webhook_deliveries_total: { platform: PLATFORMS },
    workyard_platform_calls_total: { platform: PLATFORMS },
    workyard_rate_limit_refusals_total: { limiter: LIMITERS },
    workyard_email_sends_total: { outcome: EMAIL_SEND_OUTCOMES },
  };
}

/**
 * Writes every counter series whose labels are known in advance at 0: a series that first appears at 1 has no
 * `increase()` in Prometheus, so the first schedule run, refusal or send would be lost from rates. The schedules'
 * runs are jobs of their name's kind, so their closes are written too.
 */
export function primeKnownSeries(scheduleNames: readonly string[]): void {
  for (const name of scheduleNames) {
    const schedule = boundedLabel('job:kind', name);
    for (const outcome of JOB_OUTCOMES) {
      domainMetrics.scheduleRuns.inc({ schedule, outcome }, 0);
      domainMetrics.jobsClosed.inc({ kind: schedule, outcome }, 0);
    }
  }
  for (const limiter of LIMITERS) domainMetrics.rateLimitRefusals.inc({ limiter }, 0);
  for (const outcome of EMAIL_SEND_OUTCOMES) domainMetrics.emailSends.inc({ outcome }, 0);
}
