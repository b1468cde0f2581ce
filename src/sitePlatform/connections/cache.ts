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

  get(accountId: string, projectId: string | undefined, siteId: string | undefined, now: number): T | undefined {
    const key = keyOf(accountId, projectId, siteId);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(accountId: string, projectId: string | undefined, siteId: string | undefined, value: T, now: number): void {
    this.entries.set(keyOf(accountId, projectId, siteId), { value, expiresAt: now + CREDENTIAL_TTL_MS });
  }

  bustAccount(accountId: string): void {
    const prefix = `${accountId}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}

const keyOf = (accountId: string, projectId?: string, siteId?: string) => `${accountId}|${projectId ?? ''}|${siteId ?? ''}`;
