/**
 * Readable texts of the pages a worker read lately, so the indexing step finds the text the claims were taken from
 * without the text travelling through workflow history. Per worker process and bounded: a miss (another worker, a
 * restart, an eviction) makes the indexing step read the page again.
 */
export class PageTextCache {
  private readonly entries = new Map<string, { hash: string; text: string; at: number }>();
  private characters = 0;

  constructor(
    private readonly maxCharacters = 8_000_000,
    private readonly ttlMs = 15 * 60_000,
  ) {}

  put(accountId: string, url: string, hash: string, text: string, now = Date.now()): void {
    const key = keyOf(accountId, url);
    this.drop(key);
    this.entries.set(key, { hash, text, at: now });
    this.characters += text.length;
    for (const [oldest, entry] of this.entries) {
      if (this.characters <= this.maxCharacters && now - entry.at <= this.ttlMs) break;
      this.drop(oldest);
    }
  }

  /** The text stored for this URL when it still has this hash (and is fresh), else undefined. */
  get(accountId: string, url: string, hash: string, now = Date.now()): string | undefined {
    const entry = this.entries.get(keyOf(accountId, url));
    return entry && entry.hash === hash && now - entry.at <= this.ttlMs ? entry.text : undefined;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.characters -= entry.text.length;
    this.entries.delete(key);
  }
}

const keyOf = (accountId: string, url: string) => `${accountId}\n${url}`;
