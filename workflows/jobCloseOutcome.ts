/**
 * How a workflow reports its own close (workflows/metricsInterceptor.ts). Terminations and timeouts happen on the
 * server, where no workflow code runs, so they are not among them.
 */
export const JOB_CLOSE_OUTCOMES = ['completed', 'failed', 'canceled'] as const;
export type JobCloseOutcome = (typeof JOB_CLOSE_OUTCOMES)[number];
