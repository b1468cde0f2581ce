import type { Client } from '@temporalio/client';
import type { Knex } from '../db/knex';
import type { Logger } from '../logger';
import type { HandOver } from '../../workflows/outboxDrain.contract';
import { OutboxRelay, type PassResult, type RelayTiming, type RelayWakeups } from './outboxRelay';
import { withTemporal } from './rpc';

/** Entities signalled at once within a pass. */
const SIGNALS_IN_PARALLEL = 8;
/** Most entities one second hand-over signals (the most stranded first; the next run takes the rest). */
const AGAIN_ENTITIES = 200;
/** Deadline of one signal-with-start. */
export const SIGNAL_DEADLINE_MS = 5_000;

/** An outbox whose rows each belong to one entity workflow (a shop, a site) that drains them from the table. */
export interface EntityOutbox<Row extends { seq: number }, Entity> {
  /** For log lines. */
  label: string;
  /** Claims up to `limit` undispatched rows in seq order, locked until the transaction ends (`skip locked`). */
  claim(trx: Knex.Transaction, limit: number): Promise<Row[]>;
  markDispatched(trx: Knex.Transaction, seqs: number[]): Promise<void>;
  entityOf(row: Row): Entity;
  keyOf(entity: Entity): string;
  /** Signal-with-start of the entity's workflow (the relay bounds it by SIGNAL_DEADLINE_MS). */
  signal(entity: Entity, handOver: HandOver): Promise<unknown>;
  /** Entities with rows handed over more than `olderThanMs` ago and still unprocessed, most stranded first. */
  findStale(olderThanMs: number, limit: number): Promise<Array<{ entity: Entity; fromSeq: number; count: number }>>;
}

export interface EntityRelayTiming extends RelayTiming {
  /** A row handed over this long ago and still not processed is handed over again. */
  againAfterMs: number;
}

/** What a caller may set over a relay's own timing (tests shorten the second hand-over). */
export type EntityRelayOptions = Partial<Pick<EntityRelayTiming, 'batch' | 'againAfterMs' | 'againEveryMs'>>;

/**
 * The relay of an entity outbox (transactional outbox, loop in outboxRelay.ts). A pass claims undispatched rows
 * (`for update skip locked`, so replicas share the work and a crashed relay's rows are claimed again), groups them per
 * entity, sends ONE signal-with-start per entity and stamps `dispatched_at` in the same transaction, committed after
 * the signals. The signal is a wake-up: the entity's workflow reads its rows from the table, so a signal sent twice
 * (a commit lost after it) or late changes nothing but timing.
 *
 * Every `againEveryMs` it also hands over again each entity with rows handed over more than `againAfterMs` ago and
 * still unprocessed: signal-with-start wakes a run that missed its signal, and starts a new run where the last one
 * was terminated, timed out or failed — which drains every row the old run left.
 */
export class EntityOutboxRelay<Row extends { seq: number }, Entity> extends OutboxRelay {
  private readonly entityTiming: EntityRelayTiming;

  constructor(
    private readonly deps: { db: Knex; logger: Logger; temporal: { client: Client } },
    wakeups: RelayWakeups,
    timing: EntityRelayTiming,
    private readonly outbox: EntityOutbox<Row, Entity>,
    options: EntityRelayOptions = {},
  ) {
    const entityTiming = { ...timing, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
    super(deps.logger, wakeups, entityTiming, outbox.label);
    this.entityTiming = entityTiming;
  }

  /** One pass: claim, signal per entity, mark what was handed over. */
  async dispatchOnce(): Promise<PassResult> {
    return this.deps.db.transaction(async (trx) => {
      const claimed = await this.outbox.claim(trx, this.entityTiming.batch);
      if (claimed.length === 0) return { claimed: 0, dispatched: 0, failed: 0 };
      const groups = new Map<string, Row[]>();
      for (const row of claimed) {
        const key = this.outbox.keyOf(this.outbox.entityOf(row));
        const group = groups.get(key);
        if (group) group.push(row);
        else groups.set(key, [row]);
      }
      const rows = [...groups.values()];
      const sent = await this.signalAll(
        rows.map((group) => ({ entity: this.outbox.entityOf(group[0]), handOver: { fromSeq: group[0].seq, count: group.length } })),
      );
      const handed = rows.filter((_, i) => sent[i]).flatMap((group) => group.map((r) => r.seq));
      await this.outbox.markDispatched(trx, handed);
      return { claimed: claimed.length, dispatched: handed.length, failed: claimed.length - handed.length };
    });
  }

  override async handOverAgain(): Promise<PassResult> {
    const stale = await this.outbox.findStale(this.entityTiming.againAfterMs, AGAIN_ENTITIES);
    if (stale.length === 0) return { claimed: 0, dispatched: 0, failed: 0 };
    const sent = await this.signalAll(
      stale.map((s) => ({ entity: s.entity, handOver: { fromSeq: s.fromSeq, count: s.count, again: true } })),
    );
    const rows = (pick: boolean) => stale.filter((_, i) => sent[i] === pick).reduce((n, s) => n + s.count, 0);
    const result = { claimed: rows(true) + rows(false), dispatched: rows(true), failed: rows(false) };
    this.deps.logger.warn(
      { entities: stale.length, rows: result.claimed, failedEntities: sent.filter((s) => !s).length },
      `${this.outbox.label} rows still unprocessed ${Math.round(this.entityTiming.againAfterMs / 1000)} s after their hand-over were handed over again`,
    );
    return result;
  }

  /** Signals each entity, SIGNALS_IN_PARALLEL at a time; answers which signals went through. */
  private async signalAll(items: Array<{ entity: Entity; handOver: HandOver }>): Promise<boolean[]> {
    const sent: boolean[] = [];
    for (let at = 0; at < items.length; at += SIGNALS_IN_PARALLEL) {
      const slice = items.slice(at, at + SIGNALS_IN_PARALLEL);
      const results = await Promise.allSettled(
        slice.map((item) =>
          withTemporal(this.deps.temporal.client, () => this.outbox.signal(item.entity, item.handOver), SIGNAL_DEADLINE_MS),
        ),
      );
      results.forEach((result, i) => {
        sent.push(result.status === 'fulfilled');
        if (result.status === 'rejected') {
          const err = result.reason as Error;
          this.deps.logger.warn(
            { entity: this.outbox.keyOf(slice[i].entity), rows: slice[i].handOver.count, error: err.name, reason: err.message },
            `${this.outbox.label} rows could not be handed to their workflow; they stay queued`,
          );
        }
      });
    }
    return sent;
  }
}
