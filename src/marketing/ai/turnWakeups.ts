import type { Knex } from '../../db/knex';
import { listenConnectionOf } from '../../db/listenConnection';
import { NotificationListener } from '../../db/notifications';
import type { Logger } from '../../logger';
import { TURN_CHANNEL } from './store';

/**
 * Wakes a start call the moment its turn stops running: the step that ends the turn (or makes it wait for a
 * confirmation) sends `NOTIFY ai_turns, '<turnId>'` in its own transaction, and one LISTEN connection per process and
 * database hands it to the waiters of that turn. An accelerator only: while the connection is down, the wait's row
 * poll and the run's close still answer.
 */
class TurnWakeups {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly listener: NotificationListener;

  constructor(db: Knex, logger: Logger, fallbackUrl?: string) {
    this.listener = new NotificationListener({
      connection: listenConnectionOf(db, fallbackUrl),
      channels: [TURN_CHANNEL],
      logger,
      onNotification: (_channel, turnId) => this.wake(turnId),
      onListening: () => undefined,
      onLost: () => undefined,
    }).start();
  }

  /** Settles when the turn's end is announced; `cancel` drops the waiter (the wait ended another way). */
  wait(turnId: string): { woken: Promise<void>; cancel(): void } {
    let done!: () => void;
    const woken = new Promise<void>((resolve) => (done = resolve));
    const set = this.waiters.get(turnId) ?? new Set();
    set.add(done);
    this.waiters.set(turnId, set);
    return {
      woken,
      cancel: () => {
        set.delete(done);
        if (set.size === 0 && this.waiters.get(turnId) === set) this.waiters.delete(turnId);
      },
    };
  }

  private wake(turnId: string): void {
    const set = this.waiters.get(turnId);
    this.waiters.delete(turnId);
    for (const resolve of set ?? []) resolve();
  }

  stop(): Promise<void> {
    for (const turnId of [...this.waiters.keys()]) this.wake(turnId);
    return this.listener.stop();
  }
}

const byDatabase = new Map<Knex, TurnWakeups>();

/** This process's wake-ups for `db`, started on first use. */
export function turnWakeups(deps: { db: Knex; logger: Logger; config: { DATABASE_URL?: string } }): TurnWakeups {
  let wakeups = byDatabase.get(deps.db);
  if (!wakeups) {
    wakeups = new TurnWakeups(deps.db, deps.logger, deps.config.DATABASE_URL);
    byDatabase.set(deps.db, wakeups);
  }
  return wakeups;
}

/** Closes the LISTEN connections (API shutdown, test harness): a database with a session on it cannot be dropped. */
export async function closeTurnWakeups(): Promise<void> {
  const all = [...byDatabase.values()];
  byDatabase.clear();
  await Promise.all(all.map((w) => w.stop()));
}
