/**
 * One connection's request budget: a token bucket holding `perMinute` calls that refills continuously at
 * `perMinute / 60` per second. It starts at the lower plan (60) and is resized from the platform's advertised
 * `X-RateLimit-Limit`; v2 and beta calls draw on the same bucket.
 */
export type Admission = { ok: true } | { ok: false; retryAfterSeconds: number };

export class TokenBucket {
  private tokens: number;
  private at: number;
  private perMinute: number;

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

  private refill(): void {
    const now = this.now();
    const elapsed = Math.max(0, now - this.at);
    this.at = now;
    this.tokens = Math.min(this.perMinute, this.tokens + (elapsed * this.perMinute) / 60_000);
  }
}
