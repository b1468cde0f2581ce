import { BatchWindow } from './batchWindow';
import type { Knex } from './knex';

/** Inserts in flight at once by default; arrivals meanwhile wait and go out together in the next statement. */
const DEFAULT_MAX_IN_FLIGHT = 4;

/** How one durable receiver's rows are written together. */
export interface GroupCommitSpec<Row> {
  /** Inserts the rows (distinct keys) in ONE insert-or-nothing statement; answers the keys it inserted. */
  insert(db: Knex, rows: Row[]): Promise<Set<string>>;
  /** The row's dedup key (what the statement's conflict target and answer are about). */
  keyOf(row: Row): string;
  /** The row's weight in bytes (a batch closes early past `maxBytes`). */
  bytesOf(row: Row): number;
  /** Most rows one statement inserts. */
  maxRows: number;
  /** Most bytes one statement carries. */
  maxBytes: number;
  maxInFlight?: number;
}

interface Waiting<Row> {
  row: Row;
  resolve(isNew: boolean): void;
  reject(err: unknown): void;
  /** Set when its row-by-row retry failed: the request was answered with the error already. */
  failed?: unknown;
  settled?: boolean;
}

/**
 * Group commit of a receiver's durable write (shared by the commerce and site-platform webhook receivers): rows that
 * arrive together — within one event-loop turn, or while earlier inserts are in flight — are inserted by ONE
 * `insert … on conflict do nothing returning` statement (autocommit), and each caller learns whether its row was new or
 * already recorded. Under light load a batch is one row and waits for nothing; under load the window is the time the
 * previous insert takes (≈1–2 ms). A statement that fails is retried row by row, so one bad row fails only its own
 * request. Copies of one key in the same batch: the first is inserted, the later ones settle as its duplicates.
 */
export class GroupCommitter<Row> {
  private readonly window: BatchWindow<Waiting<Row>>;

  constructor(
    private readonly db: Knex,
    private readonly spec: GroupCommitSpec<Row>,
    private readonly onCommitted: (inserted: number) => void = () => undefined,
  ) {
    this.window = new BatchWindow({
      maxInFlight: spec.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
      maxItems: spec.maxRows,
      maxWeight: spec.maxBytes,
      weightOf: (w) => spec.bytesOf(w.row),
      send: (batch) => this.write(batch),
    });
  }

  /** Resolves true once the row is committed as new, false when it was recorded before (a duplicate). */
  record(row: Row): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => this.window.add({ row, resolve, reject }));
  }

  private async write(batch: Array<Waiting<Row>>): Promise<void> {
    const firsts = new Map<string, Waiting<Row>>();
    const copies: Array<Waiting<Row>> = [];
    for (const w of batch) {
      const key = this.spec.keyOf(w.row);
      if (firsts.has(key)) copies.push(w);
      else firsts.set(key, w);
    }
    let inserted: Set<string>;
    try {
      inserted = await this.spec.insert(
        this.db,
        [...firsts.values()].map((w) => w.row),
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
      const first = firsts.get(this.spec.keyOf(c.row))!;
      if (first.failed) c.reject(first.failed);
      else c.resolve(false);
    }
    if (fresh > 0) this.onCommitted(fresh);
  }

  private async writeOneByOne(batch: Array<Waiting<Row>>): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (const w of batch) {
      try {
        for (const key of await this.spec.insert(this.db, [w.row])) inserted.add(key);
      } catch (err) {
        w.failed = err;
        w.settled = true;
        w.reject(err);
      }
    }
    return inserted;
  }
}
