/** How long this process trusts its copy of an account's verified domains. */
export const VERIFIED_CACHE_TTL_MS = 5_000;
const MAX_ACCOUNTS = 10_000;

interface Entry {
  names: Set<string>;
  expiresAt: number;
}

/**
 * Each account's verified sender domains, per process, for the check every send makes. Staleness bound: a change
 * made through this process (verify, delete) is seen at once; one made through another replica within
 * VERIFIED_CACHE_TTL_MS. Concurrent misses for one account share one load, and a load that was under way when the
 * account was invalidated is not stored, so a slow read never undoes a change.
 */
export class VerifiedDomainCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Set<string>>>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = VERIFIED_CACHE_TTL_MS,
  ) {}

  /** The account's domains: at once while its entry is fresh (every send asks), else once loaded. */
  names(accountId: string, load: () => Promise<string[]>): Set<string> | Promise<Set<string>> {
    const entry = this.entries.get(accountId);
    if (entry && entry.expiresAt > this.now()) return entry.names;
    const pending = this.loading.get(accountId);
    if (pending) return pending;
    const loaded: Promise<Set<string>> = load()
      .then((list) => {
        const names = new Set(list);
        if (this.loading.get(accountId) === loaded) this.store(accountId, names);
        return names;
      })
      .finally(() => {
        if (this.loading.get(accountId) === loaded) this.loading.delete(accountId);
      });
    this.loading.set(accountId, loaded);
    return loaded;
  }

  /** Forget the account's domains (and any read under way): the next check reads them again. */
  invalidate(accountId: string): void {
    this.entries.delete(accountId);
    this.loading.delete(accountId);
  }

  private store(accountId: string, names: Set<string>): void {
    this.entries.delete(accountId);
    if (this.entries.size >= MAX_ACCOUNTS) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(accountId, { names, expiresAt: this.now() + this.ttlMs });
  }
}
