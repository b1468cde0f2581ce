/**
 * Requests per token per minute by plan (60 or 120), a fixed one-minute window from the token's first request in
 * it. Every answer reports X-RateLimit-Limit and X-RateLimit-Remaining; over the limit answers 429 with Retry-After.
 */

export interface RateVerdict {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

const WINDOW_MS = 60_000;

export class MinuteWindows {
  private windows = new Map<string, { start: number; used: number }>();
  /** Lifted for benchmarks: requests are counted but never refused, and the full limit is reported as remaining. */
  lifted = false;

  constructor(private readonly now: () => number) {}

  take(token: string, limit: number): RateVerdict {
    const now = this.now();
    let window = this.windows.get(token);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, used: 0 };
      this.windows.set(token, window);
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
    if (window.used >= limit && !this.lifted) {
      return { allowed: false, retryAfterSeconds, headers: headers(limit, 0, retryAfterSeconds) };
    }
    window.used += 1;
    return { allowed: true, retryAfterSeconds: 0, headers: headers(limit, this.lifted ? limit : Math.max(0, limit - window.used)) };
  }
}

function headers(limit: number, remaining: number, retryAfter?: number): Record<string, string> {
  const out: Record<string, string> = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining) };
  if (retryAfter !== undefined) out['retry-after'] = String(retryAfter);
  return out;
}
