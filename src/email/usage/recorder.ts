import type { Knex } from '../../db/knex';
import { addDailyUsage, advanceLastUsed } from './usageStore';

export interface UsageCounts {
  sends: number;
  rateLimited: number;
  failedAuth: number;
}

interface DayUsage extends UsageCounts {
  keyId: string;
  accountId: string;
  day: string;
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Usage per key and UTC day, kept in memory and written in aggregate by `flush` (about once a second, see
 * flusher.ts): the send path never writes to the database for usage.
 */
export class UsageRecorder {
  private days = new Map<string, DayUsage>();
  private lastUsed = new Map<string, Date>();
  private writing: Promise<void> = Promise.resolve();
  /** What a running flush is writing: still counted by `pending` until it is committed. */
  private inFlight: { days: DayUsage[]; lastUsed: Array<[string, Date]> } = { days: [], lastUsed: [] };

  constructor(
    private readonly db: Knex,
    private readonly now: () => Date = () => new Date(),
  ) {}

  add(keyId: string, accountId: string, counts: Partial<UsageCounts>): void {
    this.merge({ keyId, accountId, day: utcDay(this.now()), sends: 0, rateLimited: 0, failedAuth: 0, ...counts });
  }

  used(keyId: string): void {
    this.lastUsed.set(keyId, this.now());
  }

  /** What is not yet written for this key: per day, and its last use. */
  pending(keyId: string): { days: Array<{ day: string } & UsageCounts>; lastUsedAt: Date | null } {
    const days = [...this.days.values(), ...this.inFlight.days]
      .filter((u) => u.keyId === keyId)
      .map(({ day, sends, rateLimited, failedAuth }) => ({ day, sends, rateLimited, failedAuth }));
    const written = this.inFlight.lastUsed.find(([id]) => id === keyId)?.[1];
    return { days, lastUsedAt: this.lastUsed.get(keyId) ?? written ?? null };
  }

  /** Writes everything pending; flushes run one after another, so a flush that resolves has written all before it. */
  flush(): Promise<void> {
    const run = this.writing.then(() => this.flushNow());
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** One transaction; on failure the counts go back into the buffer for the next flush. */
  private async flushNow(): Promise<void> {
    const days = [...this.days.values()];
    const lastUsed = [...this.lastUsed.entries()];
    if (days.length === 0 && lastUsed.length === 0) return;
    this.days = new Map();
    this.lastUsed = new Map();
    this.inFlight = { days, lastUsed };
    try {
      await this.db.transaction((trx) => this.write(trx, days, lastUsed));
    } catch (err) {
      for (const u of days) this.merge(u);
      for (const [id, at] of lastUsed) if (!this.lastUsed.has(id) || this.lastUsed.get(id)! < at) this.lastUsed.set(id, at);
      throw err;
    } finally {
      this.inFlight = { days: [], lastUsed: [] };
    }
  }

  private merge(u: DayUsage): void {
    const slot = `${u.keyId}|${u.day}`;
    const usage = this.days.get(slot);
    if (!usage) {
      this.days.set(slot, { ...u });
      return;
    }
    usage.sends += u.sends;
    usage.rateLimited += u.rateLimited;
    usage.failedAuth += u.failedAuth;
  }

  private async write(db: Knex, days: DayUsage[], lastUsed: Array<[string, Date]>): Promise<void> {
    await addDailyUsage(db, days);
    await advanceLastUsed(db, lastUsed);
  }
}
