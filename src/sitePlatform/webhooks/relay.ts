import type { AppDeps } from '../../deps';
import { signalWithStartJob } from '../../temporal/jobs';
import { OutboxRelay, RelayWakeups, type PassResult } from '../../temporal/outboxRelay';
import { withTemporal } from '../../temporal/rpc';
import { sitePlatformEventsContract, sitePlatformEventsWorkflowId } from '../../../workflows/sitePlatformEvents.contract';
import { claimUndispatched, markDispatched, type ClaimedEvent } from './eventsStore';

/** Most events one relay pass claims. */
export const RELAY_BATCH = 500;
/**
 * Pause between passes while there is work (a burst goes out in few, larger signals: fewer workflow tasks and activity
 * calls on the machine that answers the deliveries), and when idle (a receiver's commit in this process wakes it sooner).
 */
export const RELAY_BUSY_MS = 250;
export const RELAY_IDLE_MS = 200;
/** Pause after a pass whose hand-overs failed (Temporal down): the rows wait in the table, nothing is lost. */
export const RELAY_RETRY_MS = 1_000;
/** Deadline of one signal-with-start. */
export const SIGNAL_DEADLINE_MS = 5_000;
/** Sites signalled at once within a pass. */
const SIGNALS_IN_PARALLEL = 8;

type RelayDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger'>;

const wakeups = new RelayWakeups();

/** Called by the receiver once new events are committed: every relay of this process claims them now. */
export function notifySiteEventRelays(): void {
  wakeups.notify();
}

/**
 * The relay of the inbound-event outbox (transactional outbox, loop in src/temporal/outboxRelay.ts): the API process
 * runs one; it claims undispatched verified events (`for update skip locked`, so replicas share the work and a crashed
 * relay's rows are claimed again), groups them per (account, site) in arrival order, sends ONE `events`
 * signal-with-start per site to its fan-out workflow and stamps `dispatched_at` in the same transaction, committed
 * after the signals. A signal that succeeded but whose commit failed is sent again: the workflow ignores seqs it
 * already has, and the activity skips events already fanned out.
 */
export class SiteEventRelay extends OutboxRelay {
  constructor(
    private readonly deps: RelayDeps,
    private readonly options: { batch?: number } = {},
  ) {
    super(
      deps.logger,
      wakeups,
      { batch: options.batch ?? RELAY_BATCH, busyMs: RELAY_BUSY_MS, idleMs: RELAY_IDLE_MS, retryMs: RELAY_RETRY_MS },
      'site platform event',
    );
  }

  async dispatchOnce(): Promise<PassResult> {
    return this.deps.db.transaction(async (trx) => {
      const claimed = await claimUndispatched(trx, this.options.batch ?? RELAY_BATCH);
      if (claimed.length === 0) return { claimed: 0, dispatched: 0, failed: 0 };
      const sites = groupBySite(claimed);
      const handed: number[] = [];
      let failed = 0;
      for (let at = 0; at < sites.length; at += SIGNALS_IN_PARALLEL) {
        const slice = sites.slice(at, at + SIGNALS_IN_PARALLEL);
        const results = await Promise.allSettled(slice.map((events) => this.signal(events)));
        results.forEach((result, i) => {
          if (result.status === 'fulfilled') handed.push(...slice[i].map((e) => e.seq));
          else {
            failed += slice[i].length;
            const err = result.reason as Error;
            this.deps.logger.warn(
              {
                accountId: slice[i][0].accountId,
                siteId: slice[i][0].siteId,
                events: slice[i].length,
                error: err.name,
                reason: err.message,
              },
              'site platform events could not be handed to their workflow; they stay queued',
            );
          }
        });
      }
      await markDispatched(trx, handed);
      return { claimed: claimed.length, dispatched: handed.length, failed };
    });
  }

  private async signal(events: ClaimedEvent[]): Promise<void> {
    const { temporal } = this.deps;
    const { accountId, siteId } = events[0];
    await withTemporal(
      temporal.client,
      () =>
        signalWithStartJob(temporal, sitePlatformEventsContract, {
          workflowId: sitePlatformEventsWorkflowId(accountId, siteId),
          accountId,
          args: [{ accountId, siteId }],
          signal: 'events',
          payload: { seqs: events.map((e) => e.seq) },
        }),
      SIGNAL_DEADLINE_MS,
    );
  }
}

/** Claimed events per (account, site), each in arrival order (claims come ordered by seq). */
function groupBySite(claimed: ClaimedEvent[]): ClaimedEvent[][] {
  const sites = new Map<string, ClaimedEvent[]>();
  for (const e of claimed) {
    const key = `${e.accountId}:${e.siteId}`;
    const list = sites.get(key);
    if (list) list.push(e);
    else sites.set(key, [e]);
  }
  return [...sites.values()];
}
