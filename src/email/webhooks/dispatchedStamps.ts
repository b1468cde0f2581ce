import type { Knex } from '../../db/knex';
import { markEventsDispatched } from './store';

/**
 * `dispatched_at` stamps of events whose delivery workflow started, written together: the stamps of workflows that
 * started in the same event-loop turn, or while the previous stamp was being written, go out in ONE update. The
 * stamp only keeps the re-dispatch relay (events over a minute old without one) from starting the workflow again,
 * which would attach to the running one anyway.
 */
class DispatchedStamps {
  private pending: Array<{ id: string; resolve(): void; reject(err: unknown): void }> = [];
  private writing = false;
  private scheduled = false;

  constructor(private readonly db: Knex) {}

  stamp(id: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.writing || this.scheduled || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.write();
    });
  }

  private async write(): Promise<void> {
    const group = this.pending;
    this.pending = [];
    this.writing = true;
    try {
      await markEventsDispatched(
        this.db,
        group.map((g) => g.id),
      );
      for (const g of group) g.resolve();
    } catch (err) {
      for (const g of group) g.reject(err);
    } finally {
      this.writing = false;
      this.schedule();
    }
  }
}

const stamps = new WeakMap<Knex, DispatchedStamps>();

/** Stamps the event dispatched, grouped with the other stamps of this connection pool. */
export function stampDispatched(db: Knex, eventId: string): Promise<void> {
  let s = stamps.get(db);
  if (!s) stamps.set(db, (s = new DispatchedStamps(db)));
  return s.stamp(eventId);
}
