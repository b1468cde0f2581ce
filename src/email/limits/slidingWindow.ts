/** The window every per-second limit is measured over. */
export const WINDOW_MS = 1_000;

export type Admission =
  | { admitted: true; limit: number; remaining: number; resetMs: number }
  | { admitted: false; limit: number; remaining: number; retryAfterMs: number };

/**
 * An exact sliding window: at most `limit` admissions in ANY window of one second. It keeps the times of the last
 * `limit` admissions in a ring; n more may enter at `now` when the (limit − n + 1)-th most recent is at least a
 * second old (for n = 1: the oldest of a full ring). A batch enters whole or not at all.
 */
export class SlidingWindow {
  private times: Float64Array;
  private next = 0; // ring index the next admission is written to (the oldest one once the ring is full)
  private stored = 0;

  constructor(readonly limit: number) {
    this.times = new Float64Array(limit);
  }

  tryAdmit(n: number, now: number): Admission {
    if (n > this.limit) return { admitted: false, limit: this.limit, remaining: this.remainingAt(now), retryAfterMs: WINDOW_MS };
    const blocker = this.recent(this.limit - n); // must have left the window
    if (blocker !== undefined && now - blocker < WINDOW_MS) {
      return { admitted: false, limit: this.limit, remaining: this.remainingAt(now), retryAfterMs: blocker + WINDOW_MS - now };
    }
    for (let i = 0; i < n; i++) this.push(now);
    return { admitted: true, limit: this.limit, remaining: this.remainingAt(now), resetMs: this.resetAt(now) };
  }

  /** Takes back the last n admissions (a later check refused the request they were for). */
  refund(n: number): void {
    const count = Math.min(n, this.stored);
    this.next = (this.next - count + this.limit) % this.limit;
    this.stored -= count;
  }

  /** Admissions still possible now, and when the window next frees a slot. */
  status(now: number): { limit: number; remaining: number; resetMs: number } {
    return { limit: this.limit, remaining: this.remainingAt(now), resetMs: this.resetAt(now) };
  }

  /** This window resized, keeping the most recent admissions that still fit. */
  resized(limit: number): SlidingWindow {
    const copy = new SlidingWindow(limit);
    const keep = Math.min(limit, this.stored);
    for (let i = keep - 1; i >= 0; i--) copy.push(this.recent(i)!);
    return copy;
  }

  /** The time of the k-th most recent admission (0 = the latest); undefined when fewer are stored. */
  private recent(k: number): number | undefined {
    if (k >= this.stored) return undefined;
    return this.times[(this.next - 1 - k + 2 * this.limit) % this.limit];
  }

  private push(time: number): void {
    this.times[this.next] = time;
    this.next = (this.next + 1) % this.limit;
    this.stored = Math.min(this.stored + 1, this.limit);
  }

  /** Admissions within the last second: binary search, since recent(k) only gets older as k grows. */
  private inWindow(now: number): number {
    let low = 0;
    let high = this.stored;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (now - this.recent(mid)! < WINDOW_MS) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private remainingAt(now: number): number {
    return this.limit - this.inWindow(now);
  }

  /** Until the oldest admission inside the window leaves it (0 when the window is empty). */
  private resetAt(now: number): number {
    const inside = this.inWindow(now);
    return inside === 0 ? 0 : this.recent(inside - 1)! + WINDOW_MS - now;
  }
}
