/** The spec's dedup window: 10 minutes, in memory, per connection and webhook id (doc3 Limits). */
export const DEDUP_WINDOW_MS = 10 * 60_000;
/** Bound of the in-memory set: past it the oldest keys go first (the durable table still catches them). */
export const DEDUP_MAX_ENTRIES = 100_000;

/**
 * A TTL set of recently accepted deliveries, per receiver instance. Every key lives the same window, so insertion
 * order is expiry order: expired keys are dropped from the front on each add, and the size bound evicts the oldest.
 * Each replica has its own; `commerce_webhook_deliveries` is the dedup that holds across replicas and restarts.
 */
export class RecentDeliveries {
  private readonly expiries = new Map<string, number>();

  constructor(private readonly options: { windowMs?: number; maxEntries?: number; now?: () => number } = {}) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  has(key: string): boolean {
    const expiry = this.expiries.get(key);
    if (expiry === undefined) return false;
    if (expiry > this.now) return true;
    this.expiries.delete(key);
    return false;
  }

  add(key: string): void {
    const now = this.now;
    for (const [oldest, expiry] of this.expiries) {
      if (expiry > now) break;
      this.expiries.delete(oldest);
    }
    this.expiries.delete(key);
    this.expiries.set(key, now + (this.options.windowMs ?? DEDUP_WINDOW_MS));
    const max = this.options.maxEntries ?? DEDUP_MAX_ENTRIES;
    while (this.expiries.size > max) this.expiries.delete(this.expiries.keys().next().value!);
  }

  get size(): number {
    return this.expiries.size;
  }

  /** Forgets everything, as a restart would. */
  clear(): void {
    this.expiries.clear();
  }
}
