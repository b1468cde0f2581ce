import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';

export type StepFailure = ActivityFailure | ApplicationFailure | TimeoutFailure;

/**
 * A step's own failure (retries used up, refused, timed out), which a run turns into a warning. An activity's
 * arrives wrapped in ActivityFailure; a local activity's may arrive as its cause alone.
 */
export function isStepFailure(err: unknown): err is StepFailure {
  return err instanceof ActivityFailure || err instanceof ApplicationFailure || err instanceof TimeoutFailure;
}

/** The coded cause: an ApplicationFailure's type (the ApiError or provider code), `timed_out`, else `step_failed`. */
export function codeOf(err: StepFailure): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure) return 'timed_out';
  if (cause instanceof ApplicationFailure && cause.type) return cause.type;
  return 'step_failed';
}

/** The failure in a few words for a warning: `<code>: <message>`, or `timed out`. */
export function reasonOf(err: StepFailure): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure) return 'timed out';
  if (cause instanceof ApplicationFailure) return cause.type ? `${cause.type}: ${cause.message}` : cause.message;
  return cause?.message ?? err.message;
}
