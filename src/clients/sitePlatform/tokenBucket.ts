/**
 * One connection's request budget: a token bucket holding `perMinute` calls that refills continuously at
 * `perMinute / 60` per second. It starts at the lower plan (60) and is resized from the platform's advertised
 * `X-RateLimit-Limit`; v2 and beta calls draw on the same bucket. The platform counts in fixed minute windows, so a
 * continuous refill can run ahead of it: a remote 429 holds the bucket empty for its Retry-After (`holdFor`), and the
 * calls meanwhile are refused locally instead of each drawing a 429 of their own.
 */
export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

/** A hold counts as over this close to its end: a timer set for the Retry-After may fire a few ms early by the clock. */
const HOLD_TOLERANCE_MS = 20;

export class TokenBucket {
  private tokens: number;
  private at: number;
  private perMinute: number;
  /** Epoch ms before which nothing is admitted (the platform's Retry-After); 0 when not held. */
  private heldUntil = 0;

  constructor(
    perMinute = 60,
    private readonly now: () => number = Date.now,
  ) {
    if (!(perMinute > 0)) throw new Error('token bucket: perMinute must be positive');
    this.perMinute = perMinute;
    this.tokens = perMinute;
    this.at = now();
  }

  get limit(): number {
    return this.perMinute;
  }

  /** Tokens available now (fractional). */
  available(): number {
    this.refill();
    return this.tokens;
  }

  /** Takes one token, or says how long until one is there. */
  take(): Admission {
    const now = this.now();
    if (now < this.heldUntil - HOLD_TOLERANCE_MS) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((this.heldUntil - now) / 1000)) };
    }
    this.refill();
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    const msPerToken = 60_000 / this.perMinute;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(((1 - this.tokens) * msPerToken) / 1000)) };
  }

  /** Resizes to the advertised limit; an upgrade adds the new headroom, a downgrade never leaves more than it holds. */
  resize(perMinute: number): void {
    if (!(perMinute > 0) || perMinute === this.perMinute) return;
    this.refill();
    this.tokens = Math.max(0, Math.min(perMinute, this.tokens + (perMinute - this.perMinute)));
    this.perMinute = perMinute;
  }

  /** The platform's count is the truth: other processes spend the same budget. */
  syncRemaining(remaining: number): void {
    if (!(remaining >= 0)) return;
    this.refill();
    this.tokens = Math.min(this.tokens, remaining);
  }

  /**
   * The platform refused with 429 and Retry-After: nothing is admitted until then (a longer hold already set is kept).
   * Its window has started afresh by then, so the bucket is full again when the hold ends.
   */
  holdFor(ms: number): void {
    if (!(ms > 0)) return;
    const until = this.now() + ms;
    if (until <= this.heldUntil) return;
    this.heldUntil = until;
    this.tokens = 0;
  }

  private refill(): void {
    const now = this.now();
    if (this.heldUntil > 0) {
      if (now < this.heldUntil - HOLD_TOLERANCE_MS) return;
      this.heldUntil = 0;
      this.tokens = this.perMinute;
      this.at = now;
      return;
    }
    const elapsed = Math.max(0, now - this.at);
    this.at = now;
    this.tokens = Math.min(this.perMinute, this.tokens + (elapsed * this.perMinute) / 60_000);
  }
}
