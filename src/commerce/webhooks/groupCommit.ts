import type { Knex } from '../../db/knex';
import { insertDeliveries, type NewDelivery } from './store';

/** Most rows one group-commit statement inserts. */
export const GROUP_COMMIT_MAX_ROWS = 200;
/** Most payload bytes one statement carries (a batch closes early past it). */
export const GROUP_COMMIT_MAX_BYTES = 4 * 1024 * 1024;
/** Inserts in flight at once; arrivals meanwhile wait and go out together in the next statement. */
const MAX_IN_FLIGHT = 4;

interface Waiting {
  delivery: NewDelivery;
  resolve(isNew: boolean): void;
  reject(err: unknown): void;
  /** Set when its row-by-row retry failed: the request was answered with the error already. */
  failed?: unknown;
  settled?: boolean;
}

/**
 * Group commit of the receiver's durable write: deliveries that arrive together — within one event-loop turn, or
 * while earlier inserts are in flight — are inserted by ONE `insert … on conflict do nothing returning` statement
 * (autocommit), and each caller learns whether its delivery was new or already recorded. Under light load a batch
 * is one row and waits for nothing; under load the window is the time the previous insert takes (≈1–2 ms).
 * A statement that fails is retried row by row, so one bad row fails only its own request.
 */
export class GroupCommit {
  private queue: Waiting[] = [];
  private queuedBytes = 0;
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly db: Knex,
    private readonly onCommitted: (inserted: number) => void = () => undefined,
  ) {}

  /** Resolves true once the delivery is committed as new, false when it was recorded before (a duplicate). */
  record(delivery: NewDelivery): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ delivery, resolve, reject });
      this.queuedBytes += delivery.payloadJson.length;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.queue.length === 0 || this.inFlight >= MAX_IN_FLIGHT) return;
    if (this.queue.length >= GROUP_COMMIT_MAX_ROWS || this.queuedBytes >= GROUP_COMMIT_MAX_BYTES) {
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
    const batch: Waiting[] = [];
    let bytes = 0;
    while (this.queue.length > 0 && batch.length < GROUP_COMMIT_MAX_ROWS && (batch.length === 0 || bytes < GROUP_COMMIT_MAX_BYTES)) {
      const next = this.queue.shift()!;
      bytes += next.delivery.payloadJson.length;
      batch.push(next);
    }
    this.queuedBytes -= bytes;
    this.inFlight++;
    void this.write(batch).finally(() => {
      this.inFlight--;
      this.schedule();
    });
  }

  private async write(batch: Waiting[]): Promise<void> {
    // Copies of one delivery in the same batch: the first is inserted, the later ones are its duplicates.
    const firsts = new Map<string, Waiting>();
    const copies: Waiting[] = [];
    for (const w of batch) {
      const key = keyOf(w.delivery);
      if (firsts.has(key)) copies.push(w);
      else firsts.set(key, w);
    }
    let inserted: Set<string>;
    try {
      inserted = await insertDeliveries(
        this.db,
        [...firsts.values()].map((w) => w.delivery),
      );
    } catch {
      inserted = await this.writeOneByOne([...firsts.values()]);
    }
    let fresh = 0;
    for (const [key, w] of firsts) {
      if (!w.settled) {
        const isNew = inserted.has(key);
        if (isNew) fresh++;
        w.resolve(isNew);
      }
    }
    // A copy settles after its first: it is a duplicate only if the first was recorded at all.
    for (const c of copies) {
      const first = firsts.get(keyOf(c.delivery))!;
      if (first.failed) c.reject(first.failed);
      else c.resolve(false);
    }
    if (fresh > 0) this.onCommitted(fresh);
  }

  private async writeOneByOne(batch: Waiting[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (const w of batch) {
      try {
        for (const key of await insertDeliveries(this.db, [w.delivery])) inserted.add(key);
      } catch (err) {
        w.failed = err;
        w.settled = true;
        w.reject(err);
      }
    }
    return inserted;
  }
}

const keyOf = (d: NewDelivery) => `${d.connectionId}:${d.webhookId}`;
