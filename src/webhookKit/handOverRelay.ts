import type { Logger } from '../logger';
import { OutboxRelay, RelayWakeups, type PassResult } from '../temporal/outboxRelay';

/** Workflow starts at once within a pass. */
const STARTS_IN_PARALLEL = 8;

export interface UndispatchedEvent {
  id: string;
  account_id: string;
}

export interface HandOverOptions {
  /** For log lines: "<label> relay pass failed". */
  label: string;
  /** Most events one pass hands over (a full pass is followed at once by the next). */
  batch: number;
  /** Pause between passes when idle. */
  idleMs: number;
  /** Pause after a pass whose starts failed (Temporal down): the events wait in their table, nothing is lost. */
  retryMs: number;
  /** The events recorded but not yet handed to their delivery workflow, oldest first. */
  find(limit: number): Promise<UndispatchedEvent[]>;
  /** Starts (or attaches to) the event's delivery workflow and stamps it dispatched. */
  start(event: UndispatchedEvent): Promise<unknown>;
}

/**
 * Hands recorded webhook events to their delivery workflows: those recorded where no Temporal client was at hand and
 * those whose start failed. One indexed query per idle pass; starting is idempotent (a deterministic workflow id, a
 * completed run is attached to), so replicas running it at once never deliver an event twice.
 */
export class EventHandOverRelay extends OutboxRelay {
  constructor(
    logger: Logger,
    private readonly handOver: HandOverOptions,
  ) {
    super(
      logger,
      new RelayWakeups(),
      { batch: handOver.batch, busyMs: 0, idleMs: handOver.idleMs, retryMs: handOver.retryMs },
      handOver.label,
    );
  }

  async dispatchOnce(): Promise<PassResult> {
    const events = await this.handOver.find(this.handOver.batch);
    const result: PassResult = { claimed: events.length, dispatched: 0, failed: 0 };
    for (let at = 0; at < events.length; at += STARTS_IN_PARALLEL) {
      const starts = events.slice(at, at + STARTS_IN_PARALLEL).map((event) => this.handOver.start(event));
      for (const outcome of await Promise.allSettled(starts)) {
        if (outcome.status === 'fulfilled') result.dispatched++;
        else result.failed++;
      }
    }
    if (result.failed > 0)
      this.logger.warn({ failed: result.failed }, `${this.handOver.label} workflows could not be started; retrying later`);
    return result;
  }
}
