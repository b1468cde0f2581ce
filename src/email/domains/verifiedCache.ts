/** How long this process trusts its copy of an account's sender domains' states. */
export const VERIFIED_CACHE_TTL_MS = 5_000;
const MAX_ACCOUNTS = 10_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * One value per account (its domains' sending states, its DKIM signing keys), per process, for checks every send
 * makes. Staleness bound: a change made through this process (verify, rotate, delete) is seen at once; one made
 * through another replica within the TTL. Concurrent misses for one account share one load, and a load that was
 * under way when the account was invalidated is not stored, so a slow read never undoes a change.
 */
export class AccountCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly loading = new Map<string, Promise<T>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = VERIFIED_CACHE_TTL_MS,
  ) {}

  /** The account's value: at once while its entry is fresh (every send asks), else once loaded. */
  get(accountId: string, load: () => Promise<T>): T | Promise<T> {
    const entry = this.entries.get(accountId);
    if (entry && entry.expiresAt > this.now()) return entry.value;
    const pending = this.loading.get(accountId);
    if (pending) return pending;
    const loaded: Promise<T> = load()
      .then((value) => {
        if (this.loading.get(accountId) === loaded) this.store(accountId, value);
        return value;
      })
      .finally(() => {
        if (this.loading.get(accountId) === loaded) this.loading.delete(accountId);
      });
    this.loading.set(accountId, loaded);
    return loaded;
  }

  /** Forget the account's value (and any read under way): the next check reads it again. */
  invalidate(accountId: string): void {
    this.entries.delete(accountId);
    this.loading.delete(accountId);
  }

  private store(accountId: string, value: T): void {
    this.entries.delete(accountId);
    if (this.entries.size >= MAX_ACCOUNTS) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(accountId, { value, expiresAt: this.now() + this.ttlMs });
  }
}
