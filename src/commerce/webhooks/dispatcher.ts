import type { AppDeps } from '../../deps';
import { signalWithStartJob } from '../../temporal/jobs';
import { OutboxRelay, RelayWakeups, type PassResult } from '../../temporal/outboxRelay';
import { withTemporal } from '../../temporal/rpc';
import { commerceShopContract, commerceShopWorkflowId } from '../../../workflows/commerceShop.contract';
import { claimUndispatched, markDispatched, type ClaimedDelivery } from './store';

/** Most deliveries one relay pass claims. */
export const DISPATCH_BATCH = 500;
/**
 * Pause between passes while there is work, and when idle (a receiver's commit in this process wakes it sooner). After a
 * pass of at least DISPATCH_BURST_ROWS the pause holds against wake-ups, so a burst goes out in few, larger signals
 * (fewer relay transactions, signals and workflow tasks on the machine that answers the deliveries); after a smaller
 * pass a new delivery ends it at once.
 */
export const DISPATCH_BUSY_MS = 250;
export const DISPATCH_BURST_ROWS = 20;
export const DISPATCH_IDLE_MS = 200;
/** Pause after a pass whose hand-overs failed (Temporal down): the rows wait in the table, nothing is lost. */
export const DISPATCH_RETRY_MS = 1_000;
/** Deadline of one signal-with-start. */
export const SIGNAL_DEADLINE_MS = 5_000;
/** Shops signalled at once within a pass. */
const SIGNALS_IN_PARALLEL = 8;

type DispatcherDeps = Pick<AppDeps, 'db' | 'temporal' | 'logger'>;

const wakeups = new RelayWakeups();

/** Called by the receiver once new deliveries are committed: every relay of this process claims them now. */
export function notifyDispatchers(): void {
  wakeups.notify();
}

export type { PassResult };

/**
 * The relay of the webhook outbox (transactional outbox, loop in src/temporal/outboxRelay.ts): the API process runs
 * one; it claims undispatched deliveries (`for update skip locked`, so replicas share the work and a crashed relay's
 * rows are claimed again), groups them per shop in arrival order, sends ONE `deliveries` signal-with-start per shop
 * and stamps `dispatched_at` in the same transaction, committed after the signals. A signal that succeeded but whose
 * commit failed is sent again: the shop's workflow ignores webhook ids it already has or processed.
 *
 * Bound: a delivery is durable when its 200 is answered and is handed to Temporal within about one relay pass (at
 * once when the relay was idle and this process received it, within DISPATCH_BUSY_MS during a burst) while Temporal is
 * up. While Temporal is down the receiver still answers 200; rows wait in the table and flow when it returns.
 */
export class DeliveryDispatcher extends OutboxRelay {
  constructor(
    private readonly deps: DispatcherDeps,
    private readonly options: { batch?: number } = {},
  ) {
    super(
      deps.logger,
      wakeups,
      {
        batch: options.batch ?? DISPATCH_BATCH,
        busyMs: DISPATCH_BUSY_MS,
        burstRows: DISPATCH_BURST_ROWS,
        idleMs: DISPATCH_IDLE_MS,
        retryMs: DISPATCH_RETRY_MS,
      },
      'commerce delivery',
    );
  }

  /** One pass: claim, signal per shop, mark what was handed over. */
  async dispatchOnce(): Promise<PassResult> {
    return this.deps.db.transaction(async (trx) => {
      const claimed = await claimUndispatched(trx, this.options.batch ?? DISPATCH_BATCH);
      if (claimed.length === 0) return { claimed: 0, dispatched: 0, failed: 0 };
      const shops = groupByShop(claimed);
      const handed: number[] = [];
      let failed = 0;
      for (let at = 0; at < shops.length; at += SIGNALS_IN_PARALLEL) {
        const slice = shops.slice(at, at + SIGNALS_IN_PARALLEL);
        const results = await Promise.allSettled(slice.map((shop) => this.signal(shop)));
        results.forEach((result, i) => {
          if (result.status === 'fulfilled') handed.push(...slice[i].map((d) => d.seq));
          else {
            failed += slice[i].length;
            const err = result.reason as Error;
            this.deps.logger.warn(
              { connectionId: slice[i][0].connectionId, deliveries: slice[i].length, error: err.name, reason: err.message },
              'commerce deliveries could not be handed to their workflow; they stay queued',
            );
          }
        });
      }
      await markDispatched(trx, handed);
      return { claimed: claimed.length, dispatched: handed.length, failed };
    });
  }

  private async signal(deliveries: ClaimedDelivery[]): Promise<void> {
    const { temporal } = this.deps;
    const { accountId, connectionId } = deliveries[0];
    await withTemporal(
      temporal.client,
      () =>
        signalWithStartJob(temporal, commerceShopContract, {
          workflowId: commerceShopWorkflowId(connectionId),
          accountId,
          args: [{ accountId, connectionId }],
          signal: 'deliveries',
          payload: { webhookIds: deliveries.map((d) => d.webhookId) },
          searchAttributes: { ConnectionId: connectionId },
        }),
      SIGNAL_DEADLINE_MS,
    );
  }
}

/** Claimed rows per shop, each shop's in arrival order (claims come ordered by seq). */
function groupByShop(claimed: ClaimedDelivery[]): ClaimedDelivery[][] {
  const shops = new Map<string, ClaimedDelivery[]>();
  for (const d of claimed) {
    const list = shops.get(d.connectionId);
    if (list) list.push(d);
    else shops.set(d.connectionId, [d]);
  }
  return [...shops.values()];
}
