/** doc2 Authentication 6: decrypted tokens live in memory for at most a minute. */
export const CREDENTIAL_TTL_MS = 60_000;

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * Resolved credentials per (account, project, site), 60 s. Busting drops every entry of the account, because a
 * disconnect or reconnect can change what any of its projects and sites resolve to.
 */
export class CredentialCache<T> {
  private entries = new Map<string, Entry<T>>();
  /** Busts per account: a value read before a bust must not be stored after it. */
  private busts = new Map<string, number>();

  get(accountId: string, projectId: string | undefined, siteId: string | undefined, now: number): T | undefined {
    return this.entry(accountId, projectId, siteId, now)?.value;
  }

  /** The live entry with its expiry, or undefined (an expired one is dropped). */
  entry(accountId: string, projectId: string | undefined, siteId: string | undefined, now: number): Entry<T> | undefined {
    const key = keyOf(accountId, projectId, siteId);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores a value read at `now`; with `generation` (from generation() before the read), only if no bust came since. */
  set(accountId: string, projectId: string | undefined, siteId: string | undefined, value: T, now: number, generation?: number): void {
    if (generation !== undefined && generation !== this.generation(accountId)) return;
    this.entries.set(keyOf(accountId, projectId, siteId), { value, expiresAt: now + CREDENTIAL_TTL_MS });
  }

  generation(accountId: string): number {
    return this.busts.get(accountId) ?? 0;
  }

  bustAccount(accountId: string): void {
    this.busts.set(accountId, this.generation(accountId) + 1);
    const prefix = `${accountId}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

export const cacheKeyOf = (accountId: string, projectId?: string, siteId?: string) => keyOf(accountId, projectId, siteId);

const keyOf = (accountId: string, projectId?: string, siteId?: string) => `${accountId}|${projectId ?? ''}|${siteId ?? ''}`;
