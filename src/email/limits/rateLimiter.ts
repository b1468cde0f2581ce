import { performance } from 'node:perf_hooks';
import { SlidingWindow, type Admission } from './slidingWindow';

/**
 * A replica's share of a key's per-second limit: with EMAIL_RATE_REPLICAS = N every replica admits ⌊limit / N⌋
 * (at least 1) in any second, so N replicas together never exceed the limit, with no shared state on the hot path.
 */
export function replicaShare(ratePerSecond: number, replicas: number): number {
  return Math.max(1, Math.floor(ratePerSecond / replicas));
}

/**
 * A queued batch being sent by its workflow at this replica's share of the key: while it holds the key, this
 * replica admits nothing else of it (see batchHold.ts). `until`: the earliest the batch can have finished.
 */
export interface BatchHold {
  accountId: string;
  batchId: string;
  until: number;
  /** When the database may next be asked whether the batch is done. */
  checkAfter: number;
}

/** The sliding windows of this process, one per key, sized to the key's replica share. */
export class KeyRateLimiter {
  private readonly windows = new Map<string, SlidingWindow>();
  private readonly holds = new Map<string, BatchHold>();

  constructor(
    private readonly replicas: number,
    readonly clock: () => number = () => performance.now(),
  ) {}

  /** How many sends of the key this replica may admit in any one second. */
  share(ratePerSecond: number): number {
    return replicaShare(ratePerSecond, this.replicas);
  }

  holdOf(keyId: string): BatchHold | undefined {
    return this.holds.get(keyId);
  }

  hold(keyId: string, hold: BatchHold): void {
    this.holds.set(keyId, hold);
  }

  release(keyId: string, batchId: string): void {
    if (this.holds.get(keyId)?.batchId === batchId) this.holds.delete(keyId);
  }

  admit(keyId: string, ratePerSecond: number, n: number): Admission {
    return this.window(keyId, ratePerSecond).tryAdmit(n, this.clock());
  }

  refund(keyId: string, n: number): void {
    this.windows.get(keyId)?.refund(n);
  }

  status(keyId: string, ratePerSecond: number) {
    return this.window(keyId, ratePerSecond).status(this.clock());
  }

  private window(keyId: string, ratePerSecond: number): SlidingWindow {
    const limit = replicaShare(ratePerSecond, this.replicas);
    let window = this.windows.get(keyId);
    if (window?.limit === limit) return window;
    window = window ? window.resized(limit) : new SlidingWindow(limit);
    this.windows.set(keyId, window);
    return window;
  }
}

/** `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (whole seconds until a slot frees). */
export function rateLimitHeaders(state: { limit: number; remaining: number; resetMs: number }): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(Math.ceil(state.resetMs / 1000)),
  };
}
