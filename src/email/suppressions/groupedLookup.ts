import { BatchWindow } from '../../db/batchWindow';
import type { Knex } from '../../db/knex';
import { suppressedPairs, type SuppressionRow } from './store';

/** Lookups in flight at once; checks arriving meanwhile wait and go out together in the next statement. */
const MAX_IN_FLIGHT = 2;
/** A statement closes once it asks about this many (account, address) pairs. */
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
  private readonly window: BatchWindow<Waiting>;

  constructor(private readonly db: Knex) {
    this.window = new BatchWindow({
      maxInFlight: MAX_IN_FLIGHT,
      maxItems: Infinity,
      maxWeight: MAX_PAIRS,
      weightOf: (w) => w.emails.length,
      send: (group) => this.run(group),
    });
  }

  /** The suppressions among `emails` (lower case, distinct) of the account. */
  lookup(accountId: string, emails: string[]): Promise<SuppressionRow[]> {
    if (emails.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => this.window.add({ accountId, emails, resolve, reject }));
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
