import { EventEmitter } from 'node:events';
import type { Logger } from '../logger';

/** What one relay pass did. */
export interface PassResult {
  claimed: number;
  dispatched: number;
  failed: number;
}

export interface RelayTiming {
  /** Most rows one pass claims (a full pass is followed at once by the next). */
  batch: number;
  /** Pause between passes while there is work. */
  busyMs: number;
  /**
   * Rows a pass must claim for the pause after it to hold against wake-ups (a burst then goes out in few, larger
   * hand-overs); after a smaller pass a receiver's wake-up ends the pause, so a lone delivery is not held back.
   * Default 1: every pass that claimed something holds its pause.
   */
  burstRows?: number;
  /** Pause when idle (a wake-up from a receiver in this process ends it sooner). */
  idleMs: number;
  /** Pause after a pass whose hand-overs failed (Temporal down): the rows wait in the table, nothing is lost. */
  retryMs: number;
  /** How often `handOverAgain` runs, for a relay that has it (the first time when the relay starts). */
  againEveryMs?: number;
}

/** A wake-up channel: receivers `notify()` after a commit; every relay listening claims the new rows now. */
export class RelayWakeups {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  notify(): void {
    this.emitter.emit('wake');
  }

  on(listener: () => void): void {
    this.emitter.on('wake', listener);
  }

  off(listener: () => void): void {
    this.emitter.off('wake', listener);
  }
}

/**
 * The loop of a transactional-outbox relay (the commerce and site-platform webhook receivers use one each): passes
 * of `dispatchOnce` — claim undispatched rows, hand them to Temporal, mark them — paced by `timing`: at once after a
 * full pass, the busy pause after a partial one (so a burst goes out in few signals), the idle pause (or a wake-up)
 * when there was nothing, the retry pause after a failure. `stop()` ends after the pass in progress.
 */
export abstract class OutboxRelay {
  private running = false;
  private loop?: Promise<void>;
  private woken = false;
  private wakeSleeper?: () => void;
  private readonly onWake = () => {
    this.woken = true;
    this.wakeSleeper?.();
  };

  protected constructor(
    protected readonly logger: Logger,
    private readonly wakeups: RelayWakeups,
    private readonly timing: RelayTiming,
    private readonly label: string,
  ) {}

  /** One pass: claim, hand over, mark what was handed over. */
  abstract dispatchOnce(): Promise<PassResult>;

  /**
   * Hands over again the rows handed over a while ago and still not processed (their workflow was terminated, failed,
   * timed out, or never got them): a relay whose rows have an outcome defines it; the loop runs it every
   * `againEveryMs`.
   */
  handOverAgain?(): Promise<PassResult>;
  private againAt = 0;

  start(): this {
    if (this.running) return this;
    this.running = true;
    this.wakeups.on(this.onWake);
    this.loop = this.run();
    return this;
  }

  /** Stops after the pass in progress (its transaction commits or rolls back; nothing is lost either way). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wakeups.off(this.onWake);
    this.wakeSleeper?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (this.handOverAgain && this.timing.againEveryMs && Date.now() >= this.againAt) {
        this.againAt = Date.now() + this.timing.againEveryMs;
        try {
          await this.handOverAgain();
        } catch (err) {
          this.logger.warn({ error: (err as Error).name, reason: (err as Error).message }, `${this.label} relay's second hand-over failed`);
        }
      }
      let pass: PassResult = { claimed: 0, dispatched: 0, failed: 0 };
      try {
        pass = await this.dispatchOnce();
      } catch (err) {
        this.logger.warn({ error: (err as Error).name, reason: (err as Error).message }, `${this.label} relay pass failed`);
        pass.failed = 1;
      }
      if (!this.running) break;
      if (pass.failed > 0) await this.sleep(this.timing.retryMs, false);
      else if (pass.claimed >= this.timing.batch) continue;
      // Busy: after a burst-sized pass the next one waits the interval whatever wakes it, so a burst goes out in few signals.
      else if (pass.claimed > 0) await this.sleep(this.timing.busyMs, pass.claimed < (this.timing.burstRows ?? 1));
      else await this.sleep(this.timing.idleMs, true);
    }
  }

  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (wakeable && this.woken) {
      this.woken = false;
      return new Promise((resolve) => setImmediate(resolve));
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = () => {
        if (!this.running || wakeable) {
          this.woken = false;
          done();
        }
      };
    });
  }
}
