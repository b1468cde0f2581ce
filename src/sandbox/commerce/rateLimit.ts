/**
 * The Admin API's leaky bucket: each call adds one to the bucket of (shop, app); it leaks `leakPerSecond`; a call
 * that would overflow `size` answers 429 with Retry-After. The header reports `used/size`.
 */

export interface BucketOptions {
  size: number;
  leakPerSecond: number;
}

export interface BucketVerdict {
  allowed: boolean;
  header: string;
  retryAfterSeconds: number;
}

export class LeakyBuckets {
  private levels = new Map<string, { level: number; at: number }>();

  constructor(
    private readonly options: BucketOptions,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: string): BucketVerdict {
    const { size, leakPerSecond } = this.options;
    const now = this.now();
    const prior = this.levels.get(key);
    const leaked = prior ? Math.max(0, prior.level - ((now - prior.at) / 1000) * leakPerSecond) : 0;
    if (leaked + 1 > size) {
      this.levels.set(key, { level: leaked, at: now });
      const wait = (leaked + 1 - size) / leakPerSecond;
      return { allowed: false, header: `${size}/${size}`, retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
    }
    const level = leaked + 1;
    this.levels.set(key, { level, at: now });
    return { allowed: true, header: `${Math.ceil(level)}/${size}`, retryAfterSeconds: 0 };
  }
}

export const THROTTLED_MESSAGE = 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.';
