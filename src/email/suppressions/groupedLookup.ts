import type { Knex } from '../../db/knex';
import { suppressedPairs, type SuppressionRow } from './store';

/** Lookups in flight at once; checks arriving meanwhile wait and go out together in the next statement. */
const MAX_IN_FLIGHT = 2;
/** Most (account, address) pairs one statement asks about. */
const MAX_PAIRS = 1000;

interface Waiting {
  accountId: string;
  emails: string[];
  resolve(rows: SuppressionRow[]): void;
  reject(err: unknown): void;
}

/**
 * The send path's suppression check, grouped: checks that arrive together — within one event-loop turn, or while
 * earlier lookups are in flight — are answered by ONE indexed statement over all their (account, address) pairs.
 * Every check is answered by a statement sent after it was asked, never by one already under way, so it sees every
 * suppression committed before it asked, exactly as a statement of its own would. Under light load a group is one
 * check and waits for nothing.
 */
export class GroupedSuppressionLookup {
  private queue: Waiting[] = [];
  private queuedPairs = 0;
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly db: Knex) {}

  /** The suppressions among `emails` (lower case, distinct) of the account. */
  lookup(accountId: string, emails: string[]): Promise<SuppressionRow[]> {
    if (emails.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ accountId, emails, resolve, reject });
      this.queuedPairs += emails.length;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.queue.length === 0 || this.inFlight >= MAX_IN_FLIGHT) return;
    if (this.queuedPairs >= MAX_PAIRS) {
      this.flush();
    } else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    if (this.queue.length === 0 || this.inFlight >= MAX_IN_FLIGHT) return;
    const group: Waiting[] = [];
    let pairs = 0;
    while (this.queue.length > 0 && (group.length === 0 || pairs + this.queue[0].emails.length <= MAX_PAIRS)) {
      const next = this.queue.shift()!;
      pairs += next.emails.length;
      group.push(next);
    }
    this.queuedPairs -= pairs;
    this.inFlight++;
    this.run(group).finally(() => {
      this.inFlight--;
      this.schedule();
    });
  }

  private async run(group: Waiting[]): Promise<void> {
    const accounts: string[] = [];
    const emails: string[] = [];
    for (const w of group) {
      for (const email of w.emails) {
        accounts.push(w.accountId);
        emails.push(email);
      }
    }
    let rows: Array<SuppressionRow & { account_id: string }>;
    try {
      rows = await suppressedPairs(this.db, accounts, emails);
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    }
    const found = new Map<string, SuppressionRow & { account_id: string }>();
    for (const row of rows) found.set(`${row.account_id} ${row.email}`, row);
    for (const w of group) {
      const mine: SuppressionRow[] = [];
      for (const email of w.emails) {
        const row = found.get(`${w.accountId} ${email}`);
        if (row) mine.push({ email: row.email, reason: row.reason, message_id: row.message_id, created_at: row.created_at });
      }
      w.resolve(mine);
    }
  }
}

const lookups = new WeakMap<Knex, GroupedSuppressionLookup>();

/** The grouped lookup of a connection pool (one per pool, made on first use). */
export function groupedSuppressionLookup(db: Knex): GroupedSuppressionLookup {
  let lookup = lookups.get(db);
  if (!lookup) lookups.set(db, (lookup = new GroupedSuppressionLookup(db)));
  return lookup;
}
