import type { UsageRecorder } from './recorder';

/** How often pending usage is written. */
export const USAGE_FLUSH_MS = 1_000;

const recorders = new Set<UsageRecorder>();
let timer: NodeJS.Timeout | null = null;

/** One timer per process flushes every registered recorder; it is unref'd, so it never holds the process open. */
export function registerUsageRecorder(recorder: UsageRecorder, onError: (err: unknown) => void): () => Promise<void> {
  recorders.add(recorder);
  errorHandlers.set(recorder, onError);
  if (!timer) {
    timer = setInterval(() => {
      void flushUsage().catch(() => undefined);
    }, USAGE_FLUSH_MS);
    timer.unref();
  }
  return async () => {
    recorders.delete(recorder);
    if (recorders.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
    await recorder.flush();
  };
}

const errorHandlers = new WeakMap<UsageRecorder, (err: unknown) => void>();

/** Writes all pending usage of this process now (the timer does it about once a second; tests call it directly). */
export async function flushUsage(): Promise<void> {
  await Promise.all([...recorders].map((r) => r.flush().catch((err) => errorHandlers.get(r)?.(err))));
}

/** Pending usage of a key across every recorder of this process. */
export function pendingUsage(keyId: string) {
  return [...recorders].map((r) => r.pending(keyId));
}
