import { Context } from '@temporalio/activity';

/** How often a long activity tells Temporal it is alive; its workflow sets a heartbeat timeout a few times this. */
export const HEARTBEAT_EVERY_MS = 5_000;

/**
 * Runs `work` while heartbeating on an interval, so a worker that dies mid-call has the attempt retried after the
 * heartbeat timeout instead of the whole start-to-close timeout (a page that waits out a platform Retry-After is long).
 */
export async function whileHeartbeating<T>(work: (signal: AbortSignal) => Promise<T>, everyMs = HEARTBEAT_EVERY_MS): Promise<T> {
  const ctx = Context.current();
  const beat = () => {
    if (!ctx.info.isLocal) ctx.heartbeat();
  };
  beat();
  const timer = setInterval(beat, everyMs);
  try {
    return await work(ctx.cancellationSignal);
  } finally {
    clearInterval(timer);
  }
}
