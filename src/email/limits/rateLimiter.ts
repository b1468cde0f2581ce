import { performance } from 'node:perf_hooks';
import { SlidingWindow, type Admission } from './slidingWindow';

/**
 * A replica's share of a key's per-second limit: with EMAIL_RATE_REPLICAS = N every replica admits ⌊limit / N⌋
 * (at least 1) in any second, so N replicas together never exceed the limit, with no shared state on the hot path.
 */
export function replicaShare(ratePerSecond: number, replicas: number): number {
  return Math.max(1, Math.floor(ratePerSecond / replicas));
}

/** The sliding windows of this process, one per key, sized to the key's replica share. */
export class KeyRateLimiter {
  private readonly windows = new Map<string, SlidingWindow>();

  constructor(private readonly replicas: number, private readonly clock: () => number = () => performance.now()) {}

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
